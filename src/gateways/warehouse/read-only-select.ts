/**
 * The one gate SQL text passes before it reaches a warehouse: a single read-only SELECT (WITH …
 * SELECT allowed), nothing else. Pure; the explain tool checks with it and the Redshift adapter
 * checks again before it puts the text after EXPLAIN, so no path splices unchecked text.
 *
 * The lexer is deliberately stricter than Redshift's where the two could read the same text
 * differently: a backslash anywhere, a nested block comment, dollar quoting and an unterminated
 * string or comment are refused, since each is a place where "inside a string/comment" could mean
 * one thing here and another on the server (and hide a second statement).
 */

export const MAX_SQL_LENGTH = 20_000;

export type SelectCheck = { ok: true; statement: string } | { ok: false; reason: string };

/** Words that make a statement write, change state, or run something other than a plain SELECT. */
const FORBIDDEN_WORDS = new Set([
  'insert', 'update', 'delete', 'merge', 'upsert', 'truncate', 'create', 'alter', 'drop', 'rename', 'comment',
  'copy', 'unload', 'call', 'execute', 'exec', 'prepare', 'deallocate', 'do',
  'set', 'reset', 'grant', 'revoke', 'vacuum', 'analyze', 'lock', 'refresh', 'attach', 'detach',
  'begin', 'commit', 'rollback', 'abort', 'savepoint', 'release', 'transaction',
  'declare', 'fetch', 'close', 'cancel', 'listen', 'notify', 'explain', 'show', 'into',
]);

/** Functions a SELECT could call that act on the server (sessions, settings). */
const FORBIDDEN_FUNCTIONS = new Set(['pg_terminate_backend', 'pg_cancel_backend', 'set_config', 'pg_reload_conf', 'pg_sleep']);

interface Token {
  kind: 'word' | 'quoted' | 'string' | 'number' | 'symbol';
  text: string;
}

/** `lastSemicolon`: token index of the last `;`, `semicolonAt` its character offset (-1: none). */
type Lexed = { ok: true; tokens: Token[]; lastSemicolon: number; semicolonAt: number } | { ok: false; reason: string };

function lex(sql: string): Lexed {
  const tokens: Token[] = [];
  let lastSemicolon = -1;
  let semicolonAt = -1;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end === -1) return { ok: false, reason: 'an unterminated /* comment' };
      if (sql.slice(i + 2, end).includes('/*')) return { ok: false, reason: 'nested /* comments are not accepted' };
      i = end + 2;
    } else if (c === '\\') {
      return { ok: false, reason: 'backslashes are not accepted' };
    } else if (c === '$') {
      return { ok: false, reason: 'dollar quoting and $ parameters are not accepted' };
    } else if (c === "'" || c === '"') {
      // '' inside a string (and "" inside an identifier) is the quote itself.
      let j = i + 1;
      for (;;) {
        const end = sql.indexOf(c, j);
        if (end === -1) return { ok: false, reason: c === "'" ? 'an unterminated string' : 'an unterminated quoted identifier' };
        if (sql[end + 1] === c) {
          j = end + 2;
          continue;
        }
        const body = sql.slice(i + 1, end);
        if (body.includes('\\')) return { ok: false, reason: 'backslashes are not accepted' };
        tokens.push({ kind: c === "'" ? 'string' : 'quoted', text: body });
        i = end + 1;
        break;
      }
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i))!;
      // E'…' and U&'…' strings have escape rules of their own: refuse rather than guess.
      if (sql[i + match[0].length] === "'" || (sql[i + match[0].length] === '&' && sql[i + match[0].length + 1] === "'")) {
        return { ok: false, reason: 'prefixed string literals (E\'…\', U&\'…\') are not accepted' };
      }
      tokens.push({ kind: 'word', text: match[0].toLowerCase() });
      i += match[0].length;
    } else if (/[0-9]/.test(c)) {
      const match = /^[0-9.]+(e[+-]?[0-9]+)?/i.exec(sql.slice(i))!;
      tokens.push({ kind: 'number', text: match[0] });
      i += match[0].length;
    } else {
      if (c === ';') {
        lastSemicolon = tokens.length;
        semicolonAt = i;
      }
      tokens.push({ kind: 'symbol', text: c });
      i++;
    }
  }
  return { ok: true, tokens, lastSemicolon, semicolonAt };
}

/** Checks one SELECT; answers the statement without its trailing semicolon, or why it is refused. */
export function checkReadOnlySelect(sql: string): SelectCheck {
  if (sql.length > MAX_SQL_LENGTH) return { ok: false, reason: `longer than ${MAX_SQL_LENGTH} characters` };
  const lexed = lex(sql);
  if (!lexed.ok) return lexed;
  const { tokens } = lexed;
  const semicolons = tokens.filter((token) => token.kind === 'symbol' && token.text === ';').length;
  if (semicolons > 1 || (semicolons === 1 && lexed.lastSemicolon !== tokens.length - 1)) {
    return { ok: false, reason: 'more than one statement' };
  }
  const body = semicolons === 1 ? tokens.slice(0, -1) : tokens;
  if (body.length === 0) return { ok: false, reason: 'no statement' };
  const first = body[0]!;
  if (first.kind !== 'word' || (first.text !== 'select' && first.text !== 'with')) {
    return { ok: false, reason: 'only a SELECT (or WITH … SELECT) is accepted' };
  }
  let depth = 0;
  let sawSelect = false;
  for (const [index, token] of body.entries()) {
    if (token.kind === 'symbol') {
      if (token.text === '(') depth++;
      if (token.text === ')' && --depth < 0) return { ok: false, reason: 'unbalanced parentheses' };
      continue;
    }
    if (token.kind !== 'word') continue;
    if (FORBIDDEN_WORDS.has(token.text)) return { ok: false, reason: `${token.text.toUpperCase()} is not allowed in a read-only SELECT` };
    const call = body[index + 1];
    if (FORBIDDEN_FUNCTIONS.has(token.text) && call?.kind === 'symbol' && call.text === '(') {
      return { ok: false, reason: `${token.text}() acts on the server and is not allowed` };
    }
    if (token.text === 'select' && depth === 0) sawSelect = true;
  }
  if (depth !== 0) return { ok: false, reason: 'unbalanced parentheses' };
  if (!sawSelect) return { ok: false, reason: 'no top-level SELECT' };
  // Cut at the closing semicolon: whatever follows it is blanks and comments.
  return { ok: true, statement: (semicolons === 1 ? sql.slice(0, lexed.semicolonAt) : sql).trim() };
}
