/**
 * Sorts a V8 CPU profile (node --cpu-prof) of the platform into the components of a request, by
 * self time: each sample is charged to the first component, walking from the sampled frame up its
 * stack, whose rule matches a frame (so JSON.parse called by the body parser counts as JSON).
 * Frames without a script (built-ins such as RegExp or Array methods) are charged to their caller.
 * Only the last `seconds` before the profile's end count (the measured load; the platform is
 * stopped right after it), so start-up and warm-up are left out.
 * Run: npx tsx bench/profile-breakdown.ts <file.cpuprofile> [seconds]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** First match wins, tried against each frame from the sampled one upwards. */
const COMPONENTS: [string, (fn: string, url: string) => boolean][] = [
  ['GC', (fn) => fn === '(garbage collector)'],
  ['waiting (idle)', (fn) => fn === '(idle)'],
  ['JSON', (fn) => fn === 'parse' || fn === 'stringify' || fn === 'JSON.parse' || fn === 'JSON.stringify'],
  [
    'SQLite statements',
    (_fn, url) =>
      url.includes('better-sqlite3') || url.includes('/readstore/sqlite') || url.includes('/eventstore/sqlite'),
  ],
  ['validation (zod)', (_fn, url) => url.includes('/zod/')],
  ['logging (pino)', (_fn, url) => url.includes('/pino') || url.includes('sonic-boom') || url.endsWith('/logger.ts')],
  ['metrics (prom-client)', (_fn, url) => url.includes('prom-client') || url.endsWith('/metrics.ts')],
  [
    'JWT check',
    (_fn, url) =>
      url.includes('jsonwebtoken') ||
      url.includes('koa-jwt') ||
      url.includes('jwks') ||
      url.includes('/auth/authenticate'),
  ],
  ['permission resolution', (_fn, url) => url.includes('/src/auth/')],
  [
    'event store, projections (JS)',
    (_fn, url) =>
      url.includes('/src/eventstore/') || url.includes('/src/projection-runner/') || url.includes('/projections/'),
  ],
  [
    'commands and queries (JS)',
    (_fn, url) =>
      url.includes('/commands/') ||
      url.includes('/queries/') ||
      url.includes('/src/commanding/') ||
      url.includes('/src/events/'),
  ],
  [
    'middleware chain (Koa, router, body, app middleware)',
    (_fn, url) =>
      /\/(koa|@koa|koa-compose|koa-convert|co-body|raw-body|http-errors|statuses|on-finished|type-is|accepts|negotiator|path-to-regexp|cookies|delegates)\//.test(
        url,
      ) || url.includes('/src/http/'),
  ],
  // node:fs is left to its caller: pino writes its lines with fs.writeSync.
  ['Node HTTP, streams, sockets', (_fn, url) => url.startsWith('node:') && !url.startsWith('node:fs')],
];

const [file, seconds] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
  startTime: number;
};
// The measured window ends shortly before the profile does (stopping takes a moment).
const windowEnd = profile.endTime - 300_000;
const windowStart = seconds ? windowEnd - Number(seconds) * 1e6 : profile.startTime;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const componentOf = new Map<number, string>();
const classify = (id: number): string => {
  const known = componentOf.get(id);
  if (known) return known;
  let component = 'other';
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { functionName, url } = byId.get(at)!.callFrame;
    if (functionName === '(root)' || functionName === '(program)' || (url === '' && !functionName.startsWith('(')))
      continue;
    const hit = COMPONENTS.find(([, rule]) => rule(functionName, url));
    if (hit) {
      component = hit[0];
      break;
    }
  }
  componentOf.set(id, component);
  return component;
};

const totals = new Map<string, number>();
let all = 0;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  const micros = profile.timeDeltas[i] ?? 0;
  at += micros;
  if (at < windowStart || at > windowEnd) return;
  all += micros;
  const component = byId.get(id)!.callFrame.functionName === '(program)' ? 'V8 / native (program)' : classify(id);
  totals.set(component, (totals.get(component) ?? 0) + micros);
});
for (const [component, micros] of [...totals].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${component} | ${((100 * micros) / all).toFixed(1)} % |`);
}
const idle = totals.get('waiting (idle)') ?? 0;
console.log(`\nbusy time only (idle left out):`);
for (const [component, micros] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (component !== 'waiting (idle)') console.log(`| ${component} | ${((100 * micros) / (all - idle)).toFixed(1)} % |`);
}
