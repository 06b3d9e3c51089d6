/** The read-only SELECT rule, table-driven: what passes, what is refused and why. */
import test from 'ava';
import { checkReadOnlySelect, MAX_SQL_LENGTH } from '../src/gateways/warehouse/read-only-select.js';

const ACCEPTED: [string, string, string][] = [
  // [title, sql, statement handed on]
  ['a plain SELECT', 'SELECT 1', 'SELECT 1'],
  ['lower case, trailing semicolon and blanks', '  select * from analytics.fact_orders ;  \n', 'select * from analytics.fact_orders'],
  ['WITH … SELECT', 'WITH recent AS (SELECT * FROM t WHERE d > 1) SELECT COUNT(*) FROM recent', 'WITH recent AS (SELECT * FROM t WHERE d > 1) SELECT COUNT(*) FROM recent'],
  ['a semicolon inside a string', "SELECT 'a;b' AS x", "SELECT 'a;b' AS x"],
  ['forbidden words inside a string', "SELECT * FROM t WHERE note = 'DELETE FROM users; DROP TABLE t'", "SELECT * FROM t WHERE note = 'DELETE FROM users; DROP TABLE t'"],
  ["a doubled quote inside a string", "SELECT 'it''s; fine'", "SELECT 'it''s; fine'"],
  ['a forbidden word as a quoted identifier', 'SELECT "delete", "update" FROM t', 'SELECT "delete", "update" FROM t'],
  ['identifiers that contain forbidden words', 'SELECT updated_at, created_by, deleted FROM t', 'SELECT updated_at, created_by, deleted FROM t'],
  ['line and block comments', 'SELECT 1 -- DROP TABLE t; \n /* ; DELETE */ FROM t', 'SELECT 1 -- DROP TABLE t; \n /* ; DELETE */ FROM t'],
  ['a comment after the closing semicolon', 'SELECT 1; -- done', 'SELECT 1'],
  ['CASE … END and subqueries', 'SELECT CASE WHEN x > (SELECT MAX(y) FROM u) THEN 1 ELSE 0 END FROM t', 'SELECT CASE WHEN x > (SELECT MAX(y) FROM u) THEN 1 ELSE 0 END FROM t'],
  ['UNION of SELECTs', 'SELECT a FROM t UNION ALL SELECT a FROM u', 'SELECT a FROM t UNION ALL SELECT a FROM u'],
  ['numbers with exponents and casts', 'SELECT 1.5e3, x::int FROM t', 'SELECT 1.5e3, x::int FROM t'],
];

const REFUSED: [string, string, RegExp][] = [
  // [title, sql, reason]
  ['empty text', '', /no statement/],
  ['only a comment', '-- nothing', /no statement/],
  ['only a semicolon', ';', /no statement/],
  ['INSERT', 'INSERT INTO t VALUES (1)', /only a SELECT/],
  ['UPDATE', 'UPDATE t SET a = 1', /only a SELECT/],
  ['DELETE', 'DELETE FROM t', /only a SELECT/],
  ['CREATE TABLE AS', 'CREATE TABLE x AS SELECT 1', /only a SELECT/],
  ['DROP', 'DROP TABLE t', /only a SELECT/],
  ['ALTER', 'ALTER TABLE t ADD COLUMN c int', /only a SELECT/],
  ['TRUNCATE', 'TRUNCATE t', /only a SELECT/],
  ['COPY', "COPY t FROM 's3://bucket/key' IAM_ROLE 'arn'", /only a SELECT/],
  ['UNLOAD', "UNLOAD ('select 1') TO 's3://bucket/'", /only a SELECT/],
  ['CALL', 'CALL refresh_all()', /only a SELECT/],
  ['SET', 'SET search_path TO x', /only a SELECT/],
  ['GRANT', 'GRANT SELECT ON t TO u', /only a SELECT/],
  ['VACUUM', 'VACUUM t', /only a SELECT/],
  ['EXPLAIN (the tool adds it)', 'EXPLAIN SELECT 1', /only a SELECT/],
  ['a leading comment hiding a DELETE', '/* select */ DELETE FROM t', /only a SELECT/],
  ['two statements', 'SELECT 1; SELECT 2', /more than one statement/],
  ['a SELECT then a DROP', 'SELECT 1; DROP TABLE t', /more than one statement/],
  ['a SELECT then a DROP without blank', 'SELECT 1;DROP TABLE t;', /more than one statement/],
  ['two semicolons', 'SELECT 1;;', /more than one statement/],
  ['SELECT INTO (creates a table)', 'SELECT * INTO new_table FROM t', /INTO is not allowed/],
  ['WITH around a DELETE', 'WITH gone AS (DELETE FROM t RETURNING *) SELECT * FROM gone', /DELETE is not allowed/],
  ['WITH without a SELECT', 'WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x', /INSERT is not allowed/],
  ['WITH whose main statement is not a SELECT', 'WITH x AS (SELECT 1) VALUES (1)', /no top-level SELECT/],
  ['FOR UPDATE locking', 'SELECT * FROM t FOR UPDATE', /UPDATE is not allowed/],
  ['a session-killing function', 'SELECT pg_terminate_backend(12345)', /acts on the server/],
  ['a settings function', "SELECT set_config('search_path', 'x', false)", /acts on the server/],
  ['an unterminated string hiding a statement', "SELECT 'abc; DROP TABLE t", /unterminated string/],
  ['an unterminated block comment', 'SELECT 1 /* ; DROP TABLE t', /unterminated/],
  ['a nested block comment (read differently by servers that do not nest)', 'SELECT 1 /* /* */ ; DROP TABLE t; */', /nested/],
  ['a backslash-escaped quote', "SELECT 'it\\'s; DROP TABLE t; --'", /backslash/],
  ['an E string', "SELECT E'\\x41'", /backslash|prefixed/],
  ['an E string without backslash', "SELECT E'abc'", /prefixed/],
  ['dollar quoting', 'SELECT $$; DROP TABLE t; $$', /dollar/],
  ['unbalanced parentheses', 'SELECT (1', /unbalanced/],
  ['closing before opening', 'SELECT 1) + (2', /unbalanced/],
  ['an unterminated quoted identifier', 'SELECT "abc FROM t', /unterminated quoted identifier/],
  ['longer than the cap', `SELECT ${'1 + '.repeat(MAX_SQL_LENGTH / 4)}1`, /longer than/],
];

for (const [title, sql, statement] of ACCEPTED) {
  test(`accepted: ${title}`, (t) => {
    t.deepEqual(checkReadOnlySelect(sql), { ok: true, statement });
  });
}

for (const [title, sql, reason] of REFUSED) {
  test(`refused: ${title}`, (t) => {
    const checked = checkReadOnlySelect(sql);
    t.false(checked.ok);
    if (!checked.ok) t.regex(checked.reason, reason);
  });
}
