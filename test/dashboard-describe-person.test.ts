/** Who an actor is, as the console says it (issue 29, defect 7: names, never ids), table-driven. */
import test from 'ava';
import { describePerson } from '../src/dashboard/web/describe-person.js';

const ADA = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
const names = new Map([[ADA, { id: ADA, name: 'Ada Oncall', removed: false }]]);
const ME = 'client:dev-1234';

const CASES: [string | null, string][] = [
  [null, '—'],
  [ME, 'you'],
  [ADA, 'Ada Oncall'],
  [`user:${ADA}`, 'Ada Oncall'],
  ['system:evaluator', 'evaluator'],
  ['recipient:a***@example.com', 'a***@example.com (action link)'],
  ['recipient:+44*******123', '+44*******123 (action link)'],
  [`recipient:channel:${ADA}`, 'a recipient of a channel (action link)'],
  ['0b1c2d3e-4f50-4a61-8b72-9c83d4e5f607', 'someone else (0b1c2d3e)'],
];

for (const [actor, said] of CASES)
  test(`${actor} → ${said}`, (t) => t.is(describePerson(actor, ME, names as never), said));
