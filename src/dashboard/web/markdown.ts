/**
 * The assistant's Markdown as Preact vnodes, never as HTML: the answer is the model's text, and
 * the model reads tool output that other people wrote (query text, table names, runbooks), so it
 * is untrusted. Every character of the answer reaches the page as a text node; the only
 * attributes taken from it are link targets limited to http(s) and in-page anchors. HTML tags,
 * images and other schemes stay visible as the text they are.
 *
 * A deliberate subset of CommonMark (what the model writes): ATX headings, paragraphs, bullet and
 * numbered lists (nested by indentation), block quotes, rules, fenced code (an unclosed fence runs
 * to the end, as CommonMark says), pipe tables, and inline code, bold, italic and links.
 * Intraword underscores stay text, so `top_cost_drivers` is not italic.
 */
import { h, type ComponentChildren, type VNode } from 'preact';

/** Any element's vnode (h's props types differ by element). */
type Block = VNode<any>;

/** The answer's headings sit under the page's own h1 and h2: `#` becomes h3. */
const HEADING_SHIFT = 2;
/** Headings get ids with this prefix, so an answer cannot take the page's own ids. */
export const ANCHOR_PREFIX = 'answer-';

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])\s+/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const ESCAPABLE = /[\\`*_{}[\]()#+\-.!|<>~]/;

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}

/** A link target the page may follow: absolute http(s), or an anchor within the answer. */
export function safeHref(url: string): string | undefined {
  if (/^https?:\/\/[^\s<>"'`]+$/i.test(url)) return url;
  if (/^#[\w-]+$/.test(url)) return url;
  return undefined;
}

export function markdown(source: string): Block[] {
  return blocks(source.replace(/\r\n?/g, '\n').split('\n'));
}

function blocks(lines: string[]): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (
        i < lines.length &&
        !new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`).test(lines[i]!)
      )
        body.push(lines[i++]!);
      i++; // the closing fence, or past the end
      out.push(h('pre', null, h('code', fence[2] ? { 'data-language': fence[2] } : null, body.join('\n'))));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(heading[1]!.length + HEADING_SHIFT, 6);
      const text = heading[2]!;
      out.push(h(`h${level}`, { id: ANCHOR_PREFIX + slug(text) }, inline(text)));
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push(h('hr', null));
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) quoted.push(lines[i++]!.replace(QUOTE, ''));
      out.push(h('blockquote', null, blocks(quoted)));
      continue;
    }
    if (startsTable(lines, i)) {
      const rows: string[] = [];
      const delimiter = lines[i + 1]!;
      i += 2;
      while (i < lines.length && lines[i]!.trim() && lines[i]!.includes('|')) rows.push(lines[i++]!);
      out.push(table(line, delimiter, rows));
      continue;
    }
    if (ITEM.test(line)) {
      const [list, next] = listAt(lines, i);
      out.push(list);
      i = next;
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !startsBlock(lines, i)) paragraph.push(lines[i++]!.trim());
    out.push(h('p', null, inline(paragraph.join('\n'))));
  }
  return out;
}

function startsBlock(lines: string[], i: number): boolean {
  const line = lines[i]!;
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    ITEM.test(line) ||
    startsTable(lines, i)
  );
}

function startsTable(lines: string[], i: number): boolean {
  const next = lines[i + 1];
  return lines[i]!.includes('|') && next !== undefined && next.includes('-') && TABLE_DELIMITER.test(next);
}

/** A list from line `start`: its items (continuation lines indented under them) → [list, next line]. */
function listAt(lines: string[], start: number): [Block, number] {
  const first = ITEM.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const items: string[][] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i]!;
    const item = ITEM.exec(line);
    if (item && /\d/.test(item[2]!) === ordered) {
      items.push([line.slice(item[0].length)]);
      i++;
      continue;
    }
    const indented = /^(\s{2,}|\t)/.test(line);
    const blankThenIndented = !line.trim() && i + 1 < lines.length && /^(\s{2,}|\t)/.test(lines[i + 1]!);
    if (indented || blankThenIndented) {
      items[items.length - 1]!.push(line.replace(/^(\t| {1,4})/, ''));
      i++;
      continue;
    }
    if (line.trim() && !startsBlock(lines, i)) {
      items[items.length - 1]!.push(line); // a lazy continuation of the item's paragraph
      i++;
      continue;
    }
    break;
  }
  const children = items.map((content) => {
    const inner = blocks(content);
    // A tight item (one paragraph) shows its text without the paragraph's margins.
    const only =
      inner.length === 1 && inner[0]!.type === 'p'
        ? (inner[0]!.props as { children: ComponentChildren }).children
        : inner;
    return h('li', null, only);
  });
  const startAt = ordered ? Number.parseInt(first[2]!, 10) : 1;
  return [h(ordered ? 'ol' : 'ul', ordered && startAt !== 1 ? { start: startAt } : null, children), i];
}

function cells(row: string): string[] {
  const trimmed = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

function table(header: string, delimiter: string, rows: string[]): Block {
  const headings = cells(header);
  const align = cells(delimiter).map((cell) =>
    cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : undefined,
  );
  const style = (column: number) => (align[column] ? { textAlign: align[column] } : undefined);
  return h(
    'table',
    { class: 'grid markdown-table' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        headings.map((cell, column) => h('th', { style: style(column) }, inline(cell))),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map((row) => {
        const values = cells(row);
        return h(
          'tr',
          null,
          headings.map((heading, column) =>
            h('td', { style: style(column), 'data-label': plain(heading) }, inline(values[column] ?? '')),
          ),
        );
      }),
    ),
  );
}

/** A heading cell's words without the Markdown marks, for a phone card's cell label. */
function plain(text: string): string {
  return text.replace(/[`*_]/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
}

/** Inline Markdown: code spans, emphasis, links; everything else (HTML tags too) is text. */
export function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push(buffer);
    buffer = '';
  };
  let pairs: BracketPairs | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(text.slice(i))![0];
      const close = text.indexOf(run, i + run.length);
      if (close > 0 && text[close + run.length] !== '`') {
        flush();
        out.push(h('code', null, text.slice(i + run.length, close).replace(/\n/g, ' ')));
        i = close + run.length;
        continue;
      }
      buffer += run;
      i += run.length;
      continue;
    }
    if (c === '*' || c === '_') {
      const emphasis = emphasisAt(text, i);
      if (emphasis) {
        flush();
        out.push(h(emphasis.strong ? 'strong' : 'em', null, inline(emphasis.inner)));
        i = emphasis.end;
        continue;
      }
    }
    if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      pairs ??= bracketPairs(text);
      const link = linkAt(text, c === '!' ? i + 1 : i, pairs);
      if (link) {
        flush();
        const href = c === '!' ? undefined : safeHref(link.url);
        if (!href)
          out.push(...inline(link.label)); // an image, or a scheme the page does not follow: its words only
        else if (href.startsWith('#'))
          out.push(h('a', { href, onClick: (event: MouseEvent) => scrollToAnchor(event, href) }, inline(link.label)));
        else out.push(h('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, inline(link.label)));
        i = link.end;
        continue;
      }
    }
    buffer += c;
    i++;
  }
  flush();
  return out;
}

/** The dashboard routes by the hash: an in-page anchor scrolls to the answer's heading instead. */
function scrollToAnchor(event: MouseEvent, href: string) {
  event.preventDefault();
  document.getElementById(ANCHOR_PREFIX + href.slice(1))?.scrollIntoView();
}

const WORD = /[\p{L}\p{N}]/u;

function emphasisAt(text: string, i: number): { strong: boolean; inner: string; end: number } | undefined {
  const c = text[i]!;
  const strong = text[i + 1] === c;
  const marker = strong ? c + c : c;
  const open = i + marker.length;
  if (!text[open] || /\s/.test(text[open]!)) return undefined;
  if (c === '_' && i > 0 && WORD.test(text[i - 1]!)) return undefined; // snake_case
  let close = text.indexOf(marker, open + 1);
  while (close > 0) {
    const closes = !/\s/.test(text[close - 1]!) && (c === '*' || !WORD.test(text[close + marker.length] ?? ''));
    const longer = !strong && text[close + 1] === c; // `*a **b** c*`: skip the inner strong's marks
    if (closes && !longer) return { strong, inner: text.slice(open, close), end: close + marker.length };
    close = text.indexOf(marker, close + (longer ? 2 : 1));
  }
  return undefined;
}

interface BracketPairs {
  /** The `]` that closes each `[` (nesting counted, a backslash escaping the next character). */
  square: Map<number, number>;
  /** The `)` that closes each `(` on the same line (nesting counted). */
  round: Map<number, number>;
}

/**
 * Every bracket's partner, in one pass. Looking for a link's `]` and `)` from each `[` instead
 * scanned to the end for every unmatched one: 20,000 `[` took seconds to render (quadratic).
 */
function bracketPairs(text: string): BracketPairs {
  const square = new Map<number, number>();
  const round = new Map<number, number>();
  const openSquare: number[] = [];
  let openRound: number[] = [];
  for (let j = 0; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '[') openSquare.push(j);
    else if (c === ']' && openSquare.length > 0) square.set(openSquare.pop()!, j);
    else if (c === '(') openRound.push(j);
    else if (c === ')' && openRound.length > 0) round.set(openRound.pop()!, j);
    else if (c === '\n') openRound = [];
  }
  return { square, round };
}

function linkAt(text: string, i: number, pairs: BracketPairs): { label: string; url: string; end: number } | undefined {
  const j = pairs.square.get(i);
  if (j === undefined || text[j + 1] !== '(') return undefined;
  const k = pairs.round.get(j + 1);
  if (k === undefined) return undefined;
  const target = text.slice(j + 2, k).trim();
  const url = target.replace(/\s+("[^"]*"|'[^']*')$/, '').replace(/^<(.*)>$/, '$1');
  return { label: text.slice(i + 1, j), url, end: k + 1 };
}
