import test from 'ava';
import { chunkRunbook, MAX_CHUNK_CHARS } from '../src/gateways/runbook-search/chunks.js';
import { loadRunbookChunks } from '../src/gateways/runbook-search/runbook-index.js';

const cases: {
  name: string;
  md: string;
  max?: number;
  expect: { id: string; title: string; section: string; text: string }[];
}[] = [
  {
    name: 'one chunk per ## section, title from the # heading',
    md: '# Disk spill\n\n## Symptoms\nSlow.\n\n## Remedies\nMore memory.\n',
    expect: [
      { id: 'rb#symptoms', title: 'Disk spill', section: 'Symptoms', text: 'Slow.' },
      { id: 'rb#remedies', title: 'Disk spill', section: 'Remedies', text: 'More memory.' },
    ],
  },
  {
    name: 'text before the first ## becomes an Overview section',
    md: '# T\nIntro line.\n## A\nBody',
    expect: [
      { id: 'rb#overview', title: 'T', section: 'Overview', text: 'Intro line.' },
      { id: 'rb#a', title: 'T', section: 'A', text: 'Body' },
    ],
  },
  {
    name: 'no # heading: the runbook id is the title; empty sections are dropped',
    md: '## Empty\n\n## When to escalate (now!)\nCall.\r\n',
    expect: [{ id: 'rb#when-to-escalate-now', title: 'rb', section: 'When to escalate (now!)', text: 'Call.' }],
  },
  {
    name: 'a long section is cut at paragraph boundaries, each part within the bound',
    md: '## Long\naaaa aaaa\n\nbbbb bbbb\n\ncccc',
    max: 20,
    expect: [
      { id: 'rb#long-1', title: 'rb', section: 'Long', text: 'aaaa aaaa\n\nbbbb bbbb' },
      { id: 'rb#long-2', title: 'rb', section: 'Long', text: 'cccc' },
    ],
  },
  {
    name: 'a single paragraph longer than the bound is cut hard',
    md: '## P\n' + 'x'.repeat(25),
    max: 10,
    expect: [
      { id: 'rb#p-1', title: 'rb', section: 'P', text: 'x'.repeat(10) },
      { id: 'rb#p-2', title: 'rb', section: 'P', text: 'x'.repeat(10) },
      { id: 'rb#p-3', title: 'rb', section: 'P', text: 'x'.repeat(5) },
    ],
  },
];

for (const c of cases) {
  test(`chunking: ${c.name}`, (t) => {
    const chunks = chunkRunbook('rb', c.md, c.max);
    t.deepEqual(
      chunks,
      c.expect.map((e) => ({ ...e, runbook: 'rb' })),
    );
  });
}

test('the shipped runbooks: all seven, several sections each, unique ids, bounded text', async (t) => {
  const chunks = await loadRunbookChunks();
  const runbooks = [...new Set(chunks.map((c) => c.runbook))].sort();
  t.deepEqual(runbooks, [
    'disk-spill',
    'escalation-practice',
    'paused-cluster',
    'queue-waits',
    'stale-statistics',
    'table-skew',
    'vacuum',
  ]);
  for (const rb of runbooks) t.true(chunks.filter((c) => c.runbook === rb).length >= 3, rb);
  t.is(new Set(chunks.map((c) => c.id)).size, chunks.length);
  t.true(chunks.every((c) => c.text.length > 0 && c.text.length <= MAX_CHUNK_CHARS));
});
