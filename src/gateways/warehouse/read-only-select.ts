/**
 * The one gate SQL text passes before it reaches a warehouse: a single read-only SELECT (WITH …
 * SELECT and set operations of SELECTs allowed), nothing else. The explain tool checks with it and
 * the Redshift adapter checks again before it puts the text after EXPLAIN, so no path splices
 * unchecked text.
 *
 * The text is read by PostgreSQL's own grammar (sql/parse-tree.ts), not by a hand-written lexer:
 * where a comment ends (\r as well as \n), nested comments and dollar quotes are read as the
 * server reads them. Redshift's dialect is PostgreSQL 8's, so on top of the parse the lexical forms
 * the two could read differently are refused: backslashes (escapes in Redshift's strings, not in
 * PostgreSQL's), E'…'/U&'…' strings, dollar quotes and $n parameters, nested block comments, and
 * the line separators U+0085, U+2028, U+2029 and control characters. Redshift-only syntax the
 * grammar does not know (UNLOAD, SELECT TOP, APPROXIMATE COUNT, …) is refused: this fails closed.
 */
import { ALLOWED_FUNCTIONS, SERVER_ACTING_FUNCTIONS } from './sql/allowed-functions.js';
import { tableReferences } from './sql/named-relations.js';
import { namesOf, sqlParser, walkTree, type SqlParser, type TreeNode } from './sql/parse-tree.js';

export const MAX_SQL_LENGTH = 20_000;

/** A table or view the statement reads, as written (schema null: unqualified). */
export interface NamedRelation {
  schema: string | null;
  name: string;
  /** As the statement spells it, for messages: analytics.fact_orders. */
  text: string;
}

/** `relations`: every table or view the statement names (references to its own CTEs in scope excepted). */
export type SelectCheck = { ok: true; statement: string; relations: NamedRelation[] } | { ok: false; reason: string };

/** Line separators and control characters some reader could take for a line end (or ignore). */
const DOUBTFUL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029]/;

const LOCKS: Record<string, string> = {
  LCS_FORUPDATE: 'FOR UPDATE',
  LCS_FORNOKEYUPDATE: 'FOR NO KEY UPDATE',
  LCS_FORSHARE: 'FOR SHARE',
  LCS_FORKEYSHARE: 'FOR KEY SHARE',
};

/** InsertStmt → INSERT, CreateTableAsStmt → CREATE TABLE AS. */
const statementName = (kind: string) =>
  kind
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();

const refused = (reason: string): SelectCheck => ({ ok: false, reason });

/** Why a token's spelling could be read differently by Redshift, if it could. */
function lexicalDoubt(text: string, tokenName: string): string | undefined {
  const comment = tokenName === 'SQL_COMMENT' || tokenName === 'C_COMMENT';
  if (text.includes('\\') && !comment) return 'backslashes are not accepted';
  if (tokenName === 'PARAM' || text.startsWith('$')) return 'dollar quoting and $ parameters are not accepted';
  if (tokenName === 'C_COMMENT' && text.slice(2).includes('/*')) return 'nested /* comments are not accepted';
  if (/^(e|u&|n|b|x)'/i.test(text)) return "prefixed string literals (E'…', U&'…') are not accepted";
  return undefined;
}

/** Why a function call is refused, if it is. */
function functionDoubt(call: TreeNode): string | undefined {
  const names = namesOf(call.funcname).map((name) => name.toLowerCase());
  const name = names.at(-1) ?? '';
  if (SERVER_ACTING_FUNCTIONS.has(name)) return `${name}() acts on the server and is not allowed`;
  if (names.length > 2 || (names.length === 2 && names[0] !== 'pg_catalog'))
    return `${names.join('.')}(): only built-in functions are allowed`;
  if (!ALLOWED_FUNCTIONS.has(name))
    return `${name}() is not an allowed function (aggregates, window, date/time, string, math, conditional and conversion functions are)`;
  return undefined;
}

/** Why the parsed statement is not a plain read-only SELECT, if it is not. */
function treeDoubt(statement: TreeNode, relations: NamedRelation[]): string | undefined {
  const [kind] = Object.keys(statement);
  if (kind !== 'SelectStmt')
    return `only a SELECT (or WITH … SELECT) is accepted, not ${statementName(kind ?? 'nothing')}`;
  const top = statement.SelectStmt as TreeNode;
  if (top.valuesLists) return 'no top-level SELECT (a VALUES list)';
  let doubt: string | undefined;
  walkTree(statement, (node, value) => {
    if (doubt) return;
    if (node.endsWith('Stmt') && node !== 'SelectStmt')
      doubt = `${statementName(node)} is not allowed in a read-only SELECT`;
    else if (node === 'SelectStmt' && value.intoClause)
      doubt = 'INTO is not allowed in a read-only SELECT (it creates a table)';
    else if (node === 'LockingClause')
      doubt = `${LOCKS[String(value.strength)] ?? 'a locking clause'} is not allowed in a read-only SELECT (it locks rows)`;
    else if (node === 'FuncCall') doubt = functionDoubt(value);
    else if (node === 'ParamRef') doubt = 'dollar quoting and $ parameters are not accepted';
  });
  // References to the statement's own CTEs are left out where those CTEs are in scope.
  for (const relation of tableReferences(statement)) {
    const parts = [relation.catalogname, relation.schemaname, relation.relname]
      .filter((part) => part !== undefined)
      .map(String);
    relations.push({
      schema: parts.length > 1 ? parts.slice(0, -1).join('.') : null,
      name: parts.at(-1)!,
      text: parts.join('.'),
    });
  }
  return doubt;
}

function checkWith(parser: SqlParser, sql: string): SelectCheck {
  if (sql.length > MAX_SQL_LENGTH) return refused(`longer than ${MAX_SQL_LENGTH} characters`);
  if (DOUBTFUL_CHARACTERS.test(sql))
    return refused('control characters and the line separators U+0085, U+2028, U+2029 are not accepted');
  if (sql.trim() === '') return refused('no statement');
  let statements;
  try {
    statements = parser.parse(sql);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return refused(`not valid SQL for the PostgreSQL grammar: ${message}`);
  }
  const tokens = parser.scan(sql);
  for (const token of tokens) {
    const doubt = lexicalDoubt(token.text, token.tokenName);
    if (doubt) return refused(doubt);
  }
  const semicolons = tokens.filter((token) => token.text === ';');
  const meaningful = tokens.filter((token) => token.tokenName !== 'SQL_COMMENT' && token.tokenName !== 'C_COMMENT');
  if (
    statements.length > 1 ||
    semicolons.length > 1 ||
    (semicolons.length === 1 && meaningful.at(-1) !== semicolons[0])
  ) {
    return refused('more than one statement');
  }
  if (statements.length === 0) return refused('no statement');
  const relations: NamedRelation[] = [];
  const doubt = treeDoubt(statements[0]!.stmt, relations);
  if (doubt) return refused(doubt);
  // Cut at the closing semicolon (scanner offsets are UTF-8 bytes): whatever follows is blanks and comments.
  const statement =
    semicolons.length === 1 ? Buffer.from(sql, 'utf8').subarray(0, semicolons[0]!.start).toString('utf8') : sql;
  return { ok: true, statement: statement.trim(), relations };
}

/**
 * The relations that do not lie in one of the schemas (compared case-insensitively, as unquoted
 * names are): qualified with another schema or database, or unqualified (the server's search path
 * would decide where those are, and it reaches beyond the environment's schemas).
 */
export function relationsOutside(relations: readonly NamedRelation[], schemas: readonly string[]): NamedRelation[] {
  const allowed = new Set(schemas.map((schema) => schema.toLowerCase()));
  return relations.filter((relation) => relation.schema === null || !allowed.has(relation.schema.toLowerCase()));
}

/** The error message for relations outside the environment's schemas, naming each. */
export function outsideReason(outside: readonly NamedRelation[], schemas: readonly string[]): string {
  const named = outside.map((relation) =>
    relation.schema === null ? `${relation.text} (name its schema)` : relation.text,
  );
  return `${named.join(', ')} ${outside.length === 1 ? 'is' : 'are'} not in this environment's schemas (${[...new Set(schemas)].join(', ') || 'none'})`;
}

/** Checks one SELECT; answers the statement without its trailing semicolon, or why it is refused. */
export async function checkReadOnlySelect(sql: string): Promise<SelectCheck> {
  let parser: SqlParser;
  try {
    parser = await sqlParser();
  } catch {
    return refused('the SQL parser could not be loaded; no SQL is accepted until it is');
  }
  return checkWith(parser, sql);
}
