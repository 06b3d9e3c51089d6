/** What a scrub's result means (src/eventstore/scrub-verdict.ts): table-driven, pure. */
import test from 'ava';
import { findingsOf, judgeScrub, type ScrubResult, type ScrubTarget } from '../src/eventstore/scrub-verdict.js';

const finishedAt = new Date('2026-11-28T03:00:00.000Z');
const log: ScrubTarget = { store: 'event_store', name: 'events.db', recovery: 'restore it from a backup' };
const readModels: ScrubTarget = { store: 'read_store', name: '/d/read-models.db', recovery: 'run `npm run rebuild`' };
const targets = { log, files: { '/d/events.db': log, '/d/read-models.db': readModels } };
const intactPages = [
  { file: '/d/events.db', problems: [] },
  { file: '/d/read-models.db', problems: [] },
];
const intactChain = { events: 3000, breakCount: 0, breaks: [] };
const contentBreak = {
  stream: 'incident-1',
  revision: '4',
  kind: 'content' as const,
  expected: 'aa',
  found: 'bb',
  position: 12n,
};

const cases: {
  given: string;
  result: Omit<ScrubResult, 'finishedAt'>;
  clean: boolean;
  eventStore?: RegExp;
  readStore?: RegExp;
  incomplete?: RegExp;
}[] = [
  { given: 'every page intact and every chain whole', result: { pages: intactPages, chain: intactChain }, clean: true },
  {
    given: 'a damaged page of the log (the chain not walked)',
    result: {
      pages: [
        { file: '/d/events.db', problems: ['Tree 3 page 300: btreeInitPage() returns error code 11'] },
        intactPages[1]!,
      ],
    },
    clean: false,
    eventStore:
      /^events\.db is damaged \(found by the scrub at 2026-11-28T03:00:00\.000Z: Tree 3 page 300: btreeInitPage\(\) returns error code 11\); restore it from a backup$/,
  },
  {
    given: 'three problems in the read models, the log intact',
    result: {
      pages: [intactPages[0]!, { file: '/d/read-models.db', problems: ['Page 4: never used', 'b', 'c'] }],
      chain: intactChain,
    },
    clean: false,
    readStore:
      /^\/d\/read-models\.db is damaged \(found by the scrub at .*: Page 4: never used and 2 more\); run `npm run rebuild`$/,
  },
  {
    given: 'a changed event',
    result: { pages: intactPages, chain: { events: 3000, breakCount: 2, breaks: [contentBreak] } },
    clean: false,
    eventStore:
      /^events\.db's hash chain is broken \(found by the scrub at .*: stream incident-1 revision 4: the event no longer matches its hash .* and 1 more\); it was changed outside the platform: run `npm run verify`/,
  },
  {
    given: 'a damaged page met by the chain walk (the page check passed it)',
    result: { pages: intactPages, chain: { failed: 'database disk image is malformed', damaged: true } },
    clean: false,
    eventStore: /^events\.db is damaged \(found by the scrub at .*: database disk image is malformed\); restore it/,
  },
  {
    given: 'the walk stopped by an unreachable store: not clean, but nothing found damaged',
    result: { pages: [], chain: { failed: 'connection refused', damaged: false } },
    clean: false,
    incomplete: /the chain walk stopped: connection refused/,
  },
];

for (const { given, result, clean, eventStore, readStore, incomplete } of cases) {
  test(`given ${given}: ${clean ? 'clean' : 'not clean'}${eventStore ? ', event_store names it' : ''}${readStore ? ', read_store names it' : ''}`, (t) => {
    const verdict = judgeScrub({ finishedAt, ...result }, targets);
    t.is(verdict.clean, clean);
    const [onLog, onReadModels] = [findingsOf(verdict, 'event_store'), findingsOf(verdict, 'read_store')];
    if (eventStore) t.regex(onLog ?? '', eventStore);
    else t.is(onLog, undefined);
    if (readStore) t.regex(onReadModels ?? '', readStore);
    else t.is(onReadModels, undefined);
    if (incomplete) t.regex(verdict.incomplete ?? '', incomplete);
    else t.is(verdict.incomplete, undefined);
  });
}

test('the walk meeting damage the page check already named adds no second finding; before any scrub: no finding', (t) => {
  const verdict = judgeScrub(
    {
      finishedAt,
      pages: [{ file: '/d/events.db', problems: ['Page 9: never used'] }],
      chain: { failed: 'database disk image is malformed', damaged: true },
    },
    targets,
  );
  t.is(verdict.findings.length, 1, 'the walk meeting the damage the page check named adds nothing');
  t.is(findingsOf(undefined, 'event_store'), undefined);
});
