/**
 * The dashboard's Markdown renderer (src/dashboard/web/markdown.ts), table-driven: each case is
 * the answer's text and the vnodes it must become, written out as HTML by a serializer that
 * escapes every text node the way the DOM shows it. Hostile input (tags, scripts, other link
 * schemes, unclosed fences) must come out as text; no vnode may carry raw HTML.
 */
import test from 'ava';
import type { VNode } from 'preact';
import { markdown, safeHref } from '../src/dashboard/web/markdown.js';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Vnodes → HTML text; refuses a vnode that would set HTML or a function-valued attribute other than a handler. */
function html(node: unknown): string {
  if (node === null || node === undefined || node === false || node === true) return '';
  if (Array.isArray(node)) return node.map(html).join('');
  if (typeof node === 'string' || typeof node === 'number') return escape(String(node));
  const vnode = node as VNode<Record<string, unknown>>;
  if (typeof vnode.type !== 'string') throw new Error(`a component in the answer: ${String(vnode.type)}`);
  const { children, ...props } = vnode.props;
  if ('dangerouslySetInnerHTML' in props) throw new Error('raw HTML in the answer');
  const attributes = Object.entries(props)
    .filter(([name, value]) => value !== undefined && value !== null && !name.startsWith('on'))
    .map(([name, value]) =>
      name === 'style'
        ? ` style="${Object.entries(value as object)
            .map(([k, v]) => `${k}:${v}`)
            .join(';')}"`
        : ` ${name}="${escape(String(value))}"`,
    )
    .join('');
  return `<${vnode.type}${attributes}>${html(children)}${vnode.type === 'hr' ? '' : `</${vnode.type}>`}`;
}

const render = (source: string) => html(markdown(source));

const cases: [string, string, string][] = [
  ['a paragraph', 'Hello world', '<p>Hello world</p>'],
  ['two paragraphs', 'one\ntwo\n\nthree', '<p>one\ntwo</p><p>three</p>'],
  [
    "headings sit under the page's h2",
    '# Title\n## Why your queries are slow',
    '<h3 id="answer-title">Title</h3><h4 id="answer-why-your-queries-are-slow">Why your queries are slow</h4>',
  ],
  [
    'bold, italic, code',
    'a **b** *c* __d__ _e_ `f*g*`',
    '<p>a <strong>b</strong> <em>c</em> <strong>d</strong> <em>e</em> <code>f*g*</code></p>',
  ],
  [
    'snake_case stays text',
    'call top_cost_drivers and cost_by_service',
    '<p>call top_cost_drivers and cost_by_service</p>',
  ],
  ['a lone star stays text', '2 * 3 = 6 and 5 * 4', '<p>2 * 3 = 6 and 5 * 4</p>'],
  ['backslash escapes', '\\*not italic\\*', '<p>*not italic*</p>'],
  [
    'a bullet list (any bullet)',
    '- one\n- **two**\n* three',
    '<ul><li>one</li><li><strong>two</strong></li><li>three</li></ul>',
  ],
  ['a numbered list from 3', '3. three\n4. four', '<ol start="3"><li>three</li><li>four</li></ol>'],
  [
    'a nested list',
    '1. outer\n   - inner a\n   - inner b\n2. next',
    '<ol><li><p>outer</p><ul><li>inner a</li><li>inner b</li></ul></li><li>next</li></ol>',
  ],
  [
    'a list after a paragraph',
    'Remedies:\n- vacuum\n- analyze',
    '<p>Remedies:</p><ul><li>vacuum</li><li>analyze</li></ul>',
  ],
  [
    'a fenced code block keeps its text',
    '```sql\nSELECT * FROM t WHERE a < 1;\n```\nafter',
    '<pre><code data-language="sql">SELECT * FROM t WHERE a &lt; 1;</code></pre><p>after</p>',
  ],
  [
    'a table with alignment and phone labels',
    '| driver | cost |\n|---|--:|\n| RA3 | $12 |\n| S3 | `x` |',
    '<table class="grid markdown-table"><thead><tr><th>driver</th><th style="textAlign:right">cost</th></tr></thead><tbody><tr><td data-label="driver">RA3</td><td style="textAlign:right" data-label="cost">$12</td></tr><tr><td data-label="driver">S3</td><td style="textAlign:right" data-label="cost"><code>x</code></td></tr></tbody></table>',
  ],
  [
    'a table row missing a cell',
    'a | b\n--|--\n1 |',
    '<table class="grid markdown-table"><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td data-label="a">1</td><td data-label="b"></td></tr></tbody></table>',
  ],
  [
    'an escaped pipe in a cell',
    '| q |\n|---|\n| a \\| b |',
    '<table class="grid markdown-table"><thead><tr><th>q</th></tr></thead><tbody><tr><td data-label="q">a | b</td></tr></tbody></table>',
  ],
  [
    'an https link opens apart',
    'see [the docs](https://docs.aws.amazon.com/redshift/ "Redshift")',
    '<p>see <a href="https://docs.aws.amazon.com/redshift/" rel="noopener noreferrer nofollow" target="_blank">the docs</a></p>',
  ],
  ['an in-page anchor', '[below](#remedies)', '<p><a href="#remedies">below</a></p>'],
  [
    'a block quote and a rule',
    '> quoted **text**\n\n---',
    '<blockquote><p>quoted <strong>text</strong></p></blockquote><hr>',
  ],
  // Hostile input: all of it text.
  ['a script tag is text', '<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  [
    'HTML tags are text',
    '<img src=x onerror=alert(1)> <b>bold</b>',
    '<p>&lt;img src=x onerror=alert(1)&gt; &lt;b&gt;bold&lt;/b&gt;</p>',
  ],
  ['a javascript: link keeps only its words', '[click](javascript:alert(1))', '<p>click</p>'],
  [
    'a disguised javascript: link',
    '[x]( JaVaScRiPt:alert(1)) [y](java\tscript:alert(1)) [z](data:text/html,<script>)',
    '<p>x y z</p>',
  ],
  ['an http link with a quote in it is not a link', '[x](https://a.example/"onmouseover="alert(1))', '<p>x</p>'],
  ['a relative link keeps only its words', '[x](/api/v1/me) [y](//evil.example)', '<p>x y</p>'],
  ['an image is its alt text', '![tracking pixel](https://evil.example/p.gif)', '<p>tracking pixel</p>'],
  [
    'a script in a heading and a cell is text',
    '# <script>x</script>\n\n| <b>h</b> |\n|-|\n| <i>c</i> |',
    '<h3 id="answer-scriptxscript">&lt;script&gt;x&lt;/script&gt;</h3><table class="grid markdown-table"><thead><tr><th>&lt;b&gt;h&lt;/b&gt;</th></tr></thead><tbody><tr><td data-label="&lt;b&gt;h&lt;/b&gt;">&lt;i&gt;c&lt;/i&gt;</td></tr></tbody></table>',
  ],
  [
    'an unclosed fence runs to the end as code',
    'before\n```\n<script>alert(1)</script>\n**not bold**',
    '<p>before</p><pre><code>&lt;script&gt;alert(1)&lt;/script&gt;\n**not bold**</code></pre>',
  ],
  ['an unclosed code span and emphasis stay text', 'a `b and **c and [d](', '<p>a `b and **c and [d](</p>'],
  ['an entity is text', '&lt;script&gt; &amp;', '<p>&amp;lt;script&amp;gt; &amp;amp;</p>'],
  ['Windows line ends', 'a\r\n\r\nb', '<p>a</p><p>b</p>'],
  ['empty', '', ''],
];

for (const [name, source, expected] of cases) {
  test(`markdown: ${name}`, (t) => {
    t.is(render(source), expected);
  });
}

const hrefs: [string, string | undefined][] = [
  ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
  ['HTTP://EXAMPLE.COM', 'HTTP://EXAMPLE.COM'],
  ['#section-2', '#section-2'],
  ['javascript:alert(1)', undefined],
  [' https://example.com', undefined],
  ['https://example.com/<x>', undefined],
  ['#/incidents', undefined],
  ['mailto:a@example.com', undefined],
  ['vbscript:x', undefined],
  ['', undefined],
];

for (const [url, expected] of hrefs) {
  test(`safeHref(${JSON.stringify(url)}) is ${JSON.stringify(expected)}`, (t) => {
    t.is(safeHref(url), expected);
  });
}

test('markdown: a long hostile answer renders in linear time', (t) => {
  // Growth, not a wall-clock bound (a busy machine slows both sizes alike): four times the input
  // must cost about four times as much, where a quadratic blow-up on unmatched marks costs sixteen.
  const hostile = (n: number) => '*'.repeat(4 * n) + '_a'.repeat(4 * n) + '['.repeat(n) + '`'.repeat(n);
  const fastest = (source: string) => {
    let best = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      render(source);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  const small = fastest(hostile(5_000));
  const large = fastest(hostile(20_000));
  t.true(
    large / small < 10,
    `4× the input took ${(large / small).toFixed(1)}× as long (${small.toFixed(1)} ms → ${large.toFixed(1)} ms)`,
  );
});
