/**
 * The People pages' pure helpers (src/dashboard/web): whole lists read page by page, ids in an API
 * refusal said as names, and a permission map said in words, in the API's permission order.
 */
import test from 'ava';
import { everyPage } from '../src/dashboard/web/api/every-page.js';
import { grantsInWords, PERMISSION_LIST, withNames } from '../src/dashboard/web/people-words.js';
import { ALL_PERMISSIONS } from '../src/access/permissions.js';

test('everyPage follows next_cursor until the last page, and asks with the cursor', async (t) => {
  const asked: string[] = [];
  const pages: Record<string, { data: number[]; page: { next_cursor: string | null } }> = {
    '/api/v1/users?limit=2': { data: [1, 2], page: { next_cursor: 'a b' } },
    '/api/v1/users?limit=2&cursor=a%20b': { data: [3, 4], page: { next_cursor: 'c' } },
    '/api/v1/users?limit=2&cursor=c': { data: [5], page: { next_cursor: null } },
  };
  const api = {
    get: async (path: string, shape?: string) => (asked.push(`${path} ${shape}`), pages[path]),
  } as unknown as Parameters<typeof everyPage>[0];
  t.deepEqual(await everyPage<number>(api, '/api/v1/users?limit=2'), [1, 2, 3, 4, 5]);
  t.deepEqual(
    asked,
    Object.keys(pages).map((path) => `${path} bare`),
  );
});

test('withNames says every known id as its name and leaves unknown ids as they are', (t) => {
  const role = '0b7c5a8e-4f2d-4c1e-9a3b-2d6f8e1c7a90';
  const group = '1c8d6b9f-5a3e-4d2f-8b4c-3e7a9f2d8b01';
  const stranger = '2d9e7cab-6b4f-4e3a-9c5d-4f8bab3e9c12';
  const names = new Map([
    [role, 'Rota editor'],
    [group, 'Night shift'],
  ]);
  const cases: [string, string][] = [
    [
      `assigning ${role}, ${group} would grant permissions you do not hold (schedules:write); that needs iam:admin`,
      'assigning Rota editor, Night shift would grant permissions you do not hold (schedules:write); that needs iam:admin',
    ],
    [`no role ${stranger} in this tenant`, `no role ${stranger} in this tenant`],
    [`no group ${group.toUpperCase()} in this tenant`, 'no group Night shift in this tenant'],
    ['nothing to rename', 'nothing to rename'],
  ];
  for (const [message, said] of cases) t.is(withNames(message, names), said);
});

test('grantsInWords lists allows then denies in the API order; an empty map leaves everything open', (t) => {
  t.deepEqual(
    PERMISSION_LIST.map((entry) => entry.permission),
    ALL_PERMISSIONS,
  );
  t.is(
    grantsInWords({ 'sync:write': 'deny', 'schedules:write': 'allow', 'schedules:read': 'allow' }),
    'allows schedules:read, schedules:write · denies sync:write',
  );
  t.is(grantsInWords({}), 'leaves every permission open');
});
