/** The read-only SELECT rule, table-driven: what passes, what is refused and why. */
import test from 'ava';
import { checkReadOnlySelect, MAX_SQL_LENGTH, relationsOutside } from '../src/gateways/warehouse/read-only-select.js';

const ACCEPTED: [string, string, string][] = [
  // [title, sql, statement handed on]
  ['a plain SELECT', 'SELECT 1', 'SELECT 1'],
  [
    'lower case, trailing semicolon and blanks',
    '  select * from analytics.fact_orders ;  \n',
    'select * from analytics.fact_orders',
  ],
  [
    'WITH … SELECT',
    'WITH recent AS (SELECT * FROM t WHERE d > 1) SELECT COUNT(*) FROM recent',
    'WITH recent AS (SELECT * FROM t WHERE d > 1) SELECT COUNT(*) FROM recent',
  ],
  ['a semicolon inside a string', "SELECT 'a;b' AS x", "SELECT 'a;b' AS x"],
  [
    'forbidden words inside a string',
    "SELECT * FROM t WHERE note = 'DELETE FROM users; DROP TABLE t'",
    "SELECT * FROM t WHERE note = 'DELETE FROM users; DROP TABLE t'",
  ],
  ['a doubled quote inside a string', "SELECT 'it''s; fine'", "SELECT 'it''s; fine'"],
  ['a forbidden word as a quoted identifier', 'SELECT "delete", "update" FROM t', 'SELECT "delete", "update" FROM t'],
  [
    'identifiers that contain forbidden words',
    'SELECT updated_at, created_by, deleted FROM t',
    'SELECT updated_at, created_by, deleted FROM t',
  ],
  [
    'line and block comments',
    'SELECT 1 -- DROP TABLE t; \n /* ; DELETE */ FROM t',
    'SELECT 1 -- DROP TABLE t; \n /* ; DELETE */ FROM t',
  ],
  ['a comment after the closing semicolon', 'SELECT 1; -- done', 'SELECT 1'],
  [
    'CASE … END and subqueries',
    'SELECT CASE WHEN x > (SELECT MAX(y) FROM u) THEN 1 ELSE 0 END FROM t',
    'SELECT CASE WHEN x > (SELECT MAX(y) FROM u) THEN 1 ELSE 0 END FROM t',
  ],
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
  ['COPY', "COPY t FROM 's3://bucket/key' IAM_ROLE 'arn'", /not valid SQL for the PostgreSQL grammar/],
  ['UNLOAD', "UNLOAD ('select 1') TO 's3://bucket/'", /not valid SQL for the PostgreSQL grammar/],
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
  ['WITH without a SELECT', 'WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x', /only a SELECT .*not INSERT/],
  ['WITH whose main statement is not a SELECT', 'WITH x AS (SELECT 1) VALUES (1)', /no top-level SELECT/],
  ['FOR UPDATE locking', 'SELECT * FROM t FOR UPDATE', /UPDATE is not allowed/],
  ['a session-killing function', 'SELECT pg_terminate_backend(12345)', /acts on the server/],
  ['a settings function', "SELECT set_config('search_path', 'x', false)", /acts on the server/],
  ['an unterminated string hiding a statement', "SELECT 'abc; DROP TABLE t", /unterminated quoted string/],
  ['an unterminated block comment', 'SELECT 1 /* ; DROP TABLE t', /unterminated/],
  [
    'a nested block comment (read differently by servers that do not nest)',
    'SELECT 1 /* /* */ ; DROP TABLE t; */',
    /nested/,
  ],
  ['a backslash-escaped quote', "SELECT 'it\\'s; DROP TABLE t; --'", /backslash/],
  ['an E string', "SELECT E'\\x41'", /backslash|prefixed/],
  ['an E string without backslash', "SELECT E'abc'", /prefixed/],
  ['dollar quoting', 'SELECT $$; DROP TABLE t; $$', /dollar/],
  ['unbalanced parentheses', 'SELECT (1', /syntax error at end of input/],
  ['closing before opening', 'SELECT 1) + (2', /syntax error at or near "\)"/],
  ['an unterminated quoted identifier', 'SELECT "abc FROM t', /unterminated quoted identifier/],
  ['longer than the cap', `SELECT ${'1 + '.repeat(MAX_SQL_LENGTH / 4)}1`, /longer than/],
];

for (const [title, sql, statement] of ACCEPTED) {
  test(`accepted: ${title}`, async (t) => {
    t.like(await checkReadOnlySelect(sql), { ok: true, statement });
  });
}

for (const [title, sql, reason] of REFUSED) {
  test(`refused: ${title}`, async (t) => {
    const checked = await checkReadOnlySelect(sql);
    t.false(checked.ok);
    if (!checked.ok) t.regex(checked.reason, reason);
  });
}

// Issue 25, item 2: the text is read by PostgreSQL's own grammar, and whatever Redshift could read
// differently is refused.
const PARSED_ACCEPTED: [string, string, string][] = [
  ['a comment ended by CR LF', 'SELECT 1 -- c\r\nFROM t', 'SELECT 1 -- c\r\nFROM t'],
  ['a dollar sign inside a string', "SELECT 'costs $5' AS note", "SELECT 'costs $5' AS note"],
  ['a backslash inside a comment', 'SELECT 1 -- C:\\temp', 'SELECT 1 -- C:\\temp'],
  ['multi-byte text before the closing semicolon', "SELECT 'é' ; -- done", "SELECT 'é'"],
  [
    'aggregates, date/time, string and conditional functions',
    "SELECT date_trunc('day', o.created_at), COUNT(*), SUM(o.amount), COALESCE(MAX(o.amount), 0), EXTRACT(year FROM o.created_at), TRIM(o.note), pg_catalog.lower(o.note) FROM analytics.fact_orders o WHERE o.created_at > DATEADD(day, -7, GETDATE()) AND o.note LIKE 'a%' GROUP BY 1 ORDER BY 1",
    "SELECT date_trunc('day', o.created_at), COUNT(*), SUM(o.amount), COALESCE(MAX(o.amount), 0), EXTRACT(year FROM o.created_at), TRIM(o.note), pg_catalog.lower(o.note) FROM analytics.fact_orders o WHERE o.created_at > DATEADD(day, -7, GETDATE()) AND o.note LIKE 'a%' GROUP BY 1 ORDER BY 1",
  ],
  [
    'window functions and casts',
    'SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b), CAST(c AS varchar(10)), d::date FROM t',
    'SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b), CAST(c AS varchar(10)), d::date FROM t',
  ],
];

const PARSED_REFUSED: [string, string, RegExp][] = [
  [
    'a -- comment ended by CR hiding a DELETE',
    'SELECT * FROM analytics.fact_orders -- c\r; DELETE FROM analytics.fact_orders',
    /more than one statement/,
  ],
  [
    'U+2028 after a -- comment',
    'SELECT * FROM analytics.fact_orders -- c\u2028; DELETE FROM analytics.fact_orders',
    /U\+2028/,
  ],
  [
    'U+2029 after a -- comment',
    'SELECT * FROM analytics.fact_orders -- c\u2029; DELETE FROM analytics.fact_orders',
    /U\+2029/,
  ],
  [
    'U+0085 after a -- comment',
    'SELECT * FROM analytics.fact_orders -- c\u0085; DELETE FROM analytics.fact_orders',
    /U\+0085/,
  ],
  ['a vertical tab', 'SELECT 1\u000b FROM t', /control characters/],
  ['a balanced nested block comment', 'SELECT 1 /* outer /* inner */ still a comment */ FROM t', /nested/],
  ['a dollar-quoted string hiding a statement', 'SELECT $q$; DROP TABLE t; $q$', /dollar/],
  ['an empty dollar quote', 'SELECT $$x$$', /dollar/],
  ['a $n parameter', 'SELECT * FROM t WHERE a = $1', /dollar/],
  ['a quoted function name', 'SELECT "pg_terminate_backend"(1)', /pg_terminate_backend\(\) acts on the server/],
  [
    'a quoted function name in capitals',
    'SELECT "PG_TERMINATE_BACKEND"(1)',
    /pg_terminate_backend\(\) acts on the server/,
  ],
  [
    'a function named with pg_catalog',
    'SELECT pg_catalog.pg_cancel_backend(1)',
    /pg_cancel_backend\(\) acts on the server/,
  ],
  ['a quoted schema and function', 'SELECT "pg_catalog"."pg_sleep"(60)', /pg_sleep\(\) acts on the server/],
  ['pg_sleep in a subquery', 'SELECT * FROM t WHERE a IN (SELECT pg_sleep(60))', /pg_sleep/],
  ['pg_sleep in ORDER BY', 'SELECT a FROM t ORDER BY pg_sleep(1)', /pg_sleep/],
  [
    'a server function inside a CTE',
    'WITH k AS (SELECT pg_terminate_backend(pid) FROM stv_sessions) SELECT * FROM k',
    /pg_terminate_backend/,
  ],
  [
    'dblink in FROM',
    "SELECT * FROM dblink('host=elsewhere', 'DELETE FROM t') AS r(x int)",
    /dblink\(\) acts on the server/,
  ],
  [
    'a function not on the list',
    "SELECT current_setting('search_path')",
    /current_setting\(\) is not an allowed function/,
  ],
  ['a function of another schema', 'SELECT public.my_udf(1)', /public\.my_udf\(\): only built-in functions/],
  ['SELECT … INTO TEMP', 'SELECT * INTO TEMP x FROM t', /INTO is not allowed/],
  ['WITH … SELECT … INTO', 'WITH a AS (SELECT 1) SELECT * INTO x FROM a', /INTO is not allowed/],
  ['FOR SHARE', 'SELECT * FROM t FOR SHARE', /FOR SHARE is not allowed/],
  ['FOR NO KEY UPDATE NOWAIT', 'SELECT * FROM t FOR NO KEY UPDATE NOWAIT', /FOR NO KEY UPDATE is not allowed/],
  ['FOR UPDATE in a subquery', 'SELECT * FROM (SELECT * FROM t FOR UPDATE) s', /FOR UPDATE is not allowed/],
  [
    'FOR KEY SHARE in a CTE',
    'WITH a AS (SELECT * FROM t FOR KEY SHARE) SELECT * FROM a',
    /FOR KEY SHARE is not allowed/,
  ],
  [
    'a DELETE in a CTE',
    'WITH d AS (DELETE FROM analytics.fact_orders RETURNING *) SELECT * FROM d',
    /DELETE is not allowed/,
  ],
  ['an UPDATE in a CTE', 'WITH u AS (UPDATE t SET a = 1 RETURNING a) SELECT * FROM u', /UPDATE is not allowed/],
  [
    'an INSERT in a nested CTE',
    'WITH o AS (WITH i AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM i) SELECT * FROM o',
    /INSERT is not allowed/,
  ],
  ['Redshift-only SELECT TOP (fails closed)', 'SELECT TOP 10 * FROM t', /not valid SQL for the PostgreSQL grammar/],
  [
    'Redshift-only APPROXIMATE COUNT (fails closed)',
    'SELECT APPROXIMATE COUNT(DISTINCT a) FROM t',
    /not valid SQL for the PostgreSQL grammar/,
  ],
];

for (const [title, sql, statement] of PARSED_ACCEPTED) {
  test(`accepted (parser): ${title}`, async (t) => {
    t.like(await checkReadOnlySelect(sql), { ok: true, statement });
  });
}

for (const [title, sql, reason] of PARSED_REFUSED) {
  test(`refused (parser): ${title}`, async (t) => {
    const checked = await checkReadOnlySelect(sql);
    t.false(checked.ok, JSON.stringify(checked));
    if (!checked.ok) t.regex(checked.reason, reason);
  });
}

test('the relations a SELECT names: every table of joins, subqueries, CTE bodies and set operations; CTE references are not tables', async (t) => {
  const checked = await checkReadOnlySelect(
    'WITH a AS (SELECT * FROM s1.t1) SELECT * FROM a JOIN "S2".t2 ON true WHERE x IN (SELECT y FROM t3) UNION SELECT * FROM db.s4.t4',
  );
  if (!checked.ok) return t.fail(checked.reason);
  t.deepEqual(checked.relations.map((relation) => relation.text).sort(), ['S2.t2', 'db.s4.t4', 's1.t1', 't3']);
  t.deepEqual(
    relationsOutside(checked.relations, ['S1', 's2'])
      .map((relation) => relation.text)
      .sort(),
    ['db.s4.t4', 't3'],
  );
});

// A CTE hides a table of its name only where the CTE is in scope: these name real tables.
for (const [title, sql, tables] of [
  [
    'a CTE named after the table its own body reads',
    'WITH pg_user AS (SELECT * FROM pg_user) SELECT * FROM pg_user',
    ['pg_user'],
  ],
  [
    'a forward reference to a later CTE of the list',
    'WITH a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a',
    ['b'],
  ],
  [
    'a CTE declared in a subquery, named by its sibling',
    'SELECT * FROM (WITH secret AS (SELECT 1) SELECT * FROM secret) s JOIN secret ON true',
    ['secret'],
  ],
  [
    'a CTE of an IN subquery, named by the outer query',
    'SELECT * FROM stl_query WHERE 1 IN (WITH stl_query AS (SELECT 1) SELECT * FROM stl_query)',
    ['stl_query'],
  ],
  [
    'an earlier CTE seen by a later one, and a nested CTE seen inside its own SELECT',
    'WITH a AS (SELECT * FROM s.t), b AS (SELECT * FROM a) SELECT * FROM b WHERE x IN (WITH c AS (SELECT 1) SELECT * FROM c)',
    ['s.t'],
  ],
  [
    'WITH RECURSIVE: a CTE sees itself',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r',
    [],
  ],
  ['a qualified name is never a CTE', 'WITH t AS (SELECT 1) SELECT * FROM public.t', ['public.t']],
] as const) {
  test(`relations in CTE scopes: ${title}`, async (t) => {
    const checked = await checkReadOnlySelect(sql);
    if (!checked.ok) return t.fail(checked.reason);
    t.deepEqual(checked.relations.map((relation) => relation.text).sort(), [...tables].sort());
  });
}
