/**
 * Manage people in Chromium (issue 29, "Manage": users, roles, groups and overrides), nothing typed
 * as a UUID: invite a user with a role and a group picked by name (an invalid email and a taken one
 * refused beside the field), change the role, a deny override that changes the effective permission
 * and says what decides it, a custom role made with checkboxes and assigned, a group with a member
 * added by name, deletes; an iam:write-only user sees the admin buttons disabled with the permission
 * as tooltip and the API's refusals (granting beyond its own permissions, touching an owner) on the
 * page with names. axe-core in each state reached, no sideways scroll at 360 px, screenshots.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  seriousAccessibilityViolations,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
  sidewaysOverflow,
} from './support/dashboard-browser.js';
import { waitFor } from './support/wait-for.js';

let dashboard: Dashboard;
let page: Page;
let dataDir: string;
let teamId = '';

test.before(async () => {
  if (skipped) return;
  dataDir = mkdtempSync(join(tmpdir(), 'ww-dashboard-iam-'));
  dashboard = await startDashboard({ DATA_DIR: dataDir });
  teamId = (
    await dashboard.api('POST', '/api/v1/groups', { name: 'Warehouse team', permissions: { 'sync:write': 'allow' } })
  ).id;
  page = await dashboard.newPage();
  await dashboard.signIn(page);
});

test.after.always(async () => {
  await dashboard?.close();
});

async function noSeriousViolations(
  t: { deepEqual: (a: unknown, b: unknown, m?: string) => void },
  state: string,
  on: Page = page,
) {
  t.deepEqual(await seriousAccessibilityViolations(on), {}, `axe-core, ${state}`);
}

const row = (testId: string, name: string, on: Page = page) =>
  on.getByTestId(testId).getByRole('row').filter({ hasText: name });
const invalid = (locator: ReturnType<Page['getByLabel']>, what: string) =>
  waitFor(async () => (await locator.getAttribute('aria-invalid')) === 'true', {
    timeoutMs: 5_000,
    intervalMs: 50,
    message: what,
  });

suite(`invite a user with a role and a group by name, field errors beside the email, change the role${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('heading', { name: 'Users' }).waitFor();
  await page.getByRole('button', { name: 'Invite user' }).click();
  const form = page.getByRole('form', { name: 'Invite a user' });
  await form.getByLabel('Email').fill('ada-at-example');
  await form.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await form.getByLabel('Role').selectOption({ label: 'responder (built-in)' });
  await form.getByLabel('Warehouse team').check();
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await invalid(form.getByLabel('Email'), 'the email marked invalid');
  t.truthy(await form.locator('[data-path="/email"]').textContent(), 'the email error is beside the email');
  await noSeriousViolations(t, 'invite form with a field error');
  await dashboard.shots(page, 'users-invite-error');

  await form.getByLabel('Email').fill('ada@example.com');
  await form.getByLabel('Phone').fill('07700 900123');
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await invalid(form.getByLabel('Phone'), 'a phone number that is not E.164 marked invalid');
  t.regex((await form.locator('[data-path="/phone"]').textContent()) ?? '', /E\.164/);
  await form.getByLabel('Phone').fill('+447700900123');
  await form.getByRole('button', { name: 'Send invitation' }).click();
  const ada = row('users', 'Ada Lovelace');
  await ada.waitFor();
  t.regex((await ada.textContent()) ?? '', /ada@example\.com.*responder.*Warehouse team.*active.*never/);
  const [stored] = await dashboard.api('GET', '/api/v1/users?email=ada@example.com');
  t.like(stored, { role_id: 'responder', group_ids: [teamId], is_active: true, phone: '+447700900123' });

  // The same address again: the API's 409 names /email, so it shows beside the field.
  await page.getByRole('button', { name: 'Invite user' }).click();
  const again = page.getByRole('form', { name: 'Invite a user' });
  await again.getByLabel('Email').fill('ADA@example.com');
  await again.getByLabel('Name', { exact: true }).fill('Ada Again');
  await again.getByRole('button', { name: 'Send invitation' }).click();
  await invalid(again.getByLabel('Email'), 'the taken email marked invalid');
  t.regex((await again.locator('[data-path="/email"]').textContent()) ?? '', /another user/);
  t.regex((await again.getByRole('alert').textContent()) ?? '', /already exists/);
  await again.getByRole('button', { name: 'Cancel' }).click();

  await ada.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
  const edit = page.getByRole('form', { name: 'Edit user Ada Lovelace' });
  t.is(await edit.getByLabel('Warehouse team').isChecked(), true, 'the editor starts from the user');
  await edit.getByLabel('Role').selectOption({ label: 'viewer (built-in)' });
  await edit.getByRole('button', { name: 'Save user' }).click();
  await waitFor(async () => /viewer/.test((await ada.textContent()) ?? ''), {
    timeoutMs: 5_000,
    intervalMs: 50,
    message: 'the new role shown',
  });
  t.is((await dashboard.api('GET', `/api/v1/users/${stored.id}`)).role_id, 'viewer');
});

suite(`a deny override changes the effective permission and says what decides it${skipped}`, async (t) => {
  const ada = row('users', 'Ada Lovelace');
  await ada.getByRole('button', { name: 'Permissions of Ada Lovelace' }).click();
  const panel = page.getByTestId('user-permissions');
  const sync = panel.locator('tr[data-permission="sync:write"]');
  await sync.waitFor();
  t.regex((await sync.textContent()) ?? '', /allowed.*group Warehouse team/, 'allowed by the group, said by name');
  t.regex((await panel.locator('tr[data-permission="incidents:write"]').textContent()) ?? '', /denied.*role viewer/);
  await panel.getByLabel('Override sync:write').selectOption('deny');
  await panel.getByRole('button', { name: 'Save overrides' }).click();
  await waitFor(async () => /denied.*override/.test((await sync.textContent()) ?? ''), {
    timeoutMs: 5_000,
    intervalMs: 50,
    message: 'the override decides',
  });
  const [stored] = await dashboard.api('GET', '/api/v1/users?email=ada@example.com');
  t.deepEqual((await dashboard.api('GET', `/api/v1/users/${stored.id}/permission-overrides`)).permissions, {
    'sync:write': 'deny',
  });
  await noSeriousViolations(t, 'users with the permissions panel');
  t.is(await sidewaysOverflow(page, 360), 0, 'the users page fits 360 px');
  await dashboard.shots(page, 'users');
  await panel.getByRole('button', { name: 'Close' }).click();
});

suite(`a custom role made with checkboxes and assigned; a group with a member added by name${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Roles' }).click();
  await row('roles', 'owner').waitFor();
  t.regex((await row('roles', 'owner').textContent()) ?? '', /built-in.*read only/, 'built-in roles are read-only');
  await page.getByRole('button', { name: 'New role' }).click();
  const form = page.getByRole('form', { name: 'New role' });
  await form.getByLabel('Name', { exact: true }).fill('Rota editor');
  await form.getByLabel('Allow schedules:read').check();
  await form.getByLabel('Allow schedules:write').check();
  await form.getByLabel('Deny sync:write').check();
  await noSeriousViolations(t, 'role editor');
  t.is(await sidewaysOverflow(page, 360), 0, 'the role editor fits 360 px');
  await form.getByRole('button', { name: 'Create role' }).click();
  const role = row('roles', 'Rota editor');
  await role.waitFor();
  t.regex((await role.textContent()) ?? '', /custom.*allows schedules:read, schedules:write · denies sync:write/);
  await noSeriousViolations(t, 'roles');
  t.is(await sidewaysOverflow(page, 360), 0, 'the roles page fits 360 px');
  await dashboard.shots(page, 'roles');

  // Edit: the editor starts from the role's grants; clearing the deny leaves sync:write open.
  await role.getByRole('button', { name: 'Edit Rota editor' }).click();
  const roleForm = page.getByRole('form', { name: 'Edit role Rota editor' });
  t.is(await roleForm.getByLabel('Deny sync:write').isChecked(), true);
  await roleForm.getByLabel('Deny sync:write').uncheck();
  await roleForm.getByRole('button', { name: 'Save role' }).click();
  await waitFor(async () => !/denies/.test((await role.textContent()) ?? ''), {
    timeoutMs: 5_000,
    intervalMs: 50,
    message: 'the edited role shown',
  });
  t.regex((await role.textContent()) ?? '', /custom.*allows schedules:read, schedules:write(?! ·)/);

  await page.getByRole('link', { name: 'Users' }).click();
  const ada = row('users', 'Ada Lovelace');
  await ada.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
  const edit = page.getByRole('form', { name: 'Edit user Ada Lovelace' });
  await edit.getByLabel('Role').selectOption({ label: 'Rota editor' });
  await edit.getByRole('button', { name: 'Save user' }).click();
  await waitFor(async () => /Rota editor/.test((await ada.textContent()) ?? ''), {
    timeoutMs: 5_000,
    intervalMs: 50,
    message: 'the custom role shown by name',
  });

  // The role is held: its delete is refused with the API's reason, in the row.
  await page.getByRole('link', { name: 'Roles' }).click();
  await role.getByRole('button', { name: 'Delete Rota editor' }).click();
  await role.getByRole('button', { name: 'Yes, delete Rota editor' }).click();
  await role.getByRole('alert').waitFor();
  t.regex((await role.getByRole('alert').textContent()) ?? '', /user/);

  await page.getByRole('link', { name: 'Groups' }).click();
  await page.getByRole('button', { name: 'New group' }).click();
  const group = page.getByRole('form', { name: 'New group' });
  await group.getByLabel('Name', { exact: true }).fill('Night shift');
  await group.getByLabel('Allow incidents:write').check();
  await group.getByRole('button', { name: 'Create group' }).click();
  const night = row('groups', 'Night shift');
  await night.waitFor();
  await night.getByLabel('Add a member to Night shift').selectOption({ label: 'Ada Lovelace' });
  await night.getByRole('button', { name: 'Add member' }).click();
  await night.getByRole('button', { name: 'Remove Ada Lovelace' }).waitFor();
  t.regex((await night.textContent()) ?? '', /allows incidents:write.*Ada Lovelace/);
  const [stored] = await dashboard.api('GET', '/api/v1/users?email=ada@example.com');
  t.is(stored.group_ids.length, 2, 'Ada is in both groups');
  await noSeriousViolations(t, 'groups with a member');
  t.is(await sidewaysOverflow(page, 360), 0, 'the groups page fits 360 px');
  await dashboard.shots(page, 'groups');

  // A group with members cannot go; remove the member, then delete it.
  await night.getByRole('button', { name: 'Delete Night shift' }).click();
  await night.getByRole('button', { name: 'Yes, delete Night shift' }).click();
  await night.getByRole('alert').waitFor();
  await night.getByRole('button', { name: 'Remove Ada Lovelace' }).click();
  await night.getByText('no members').waitFor();
  // The confirmation stays open beside its refusal: confirm again.
  await night.getByRole('button', { name: 'Yes, delete Night shift' }).click();
  await night.waitFor({ state: 'detached' });
});

suite(`an iam:write-only user: admin buttons disabled with the permission, the API's refusals shown by name${skipped}`, async (t) => {
  const manager = await dashboard.api('POST', '/api/v1/roles', {
    name: 'User manager',
    permissions: { 'iam:read': 'allow', 'iam:write': 'allow' },
  });
  const wes = await dashboard.api('POST', '/api/v1/users', {
    email: 'wes@example.com',
    name: 'Wes Writer',
    role_id: manager.id,
    group_ids: [],
  });
  await dashboard.api('POST', '/api/v1/users', {
    email: 'olga@example.com',
    name: 'Olga Owner',
    role_id: 'owner',
    group_ids: [],
  });
  const lesser = await dashboard.newPage();
  await lesser.goto(`${dashboard.platform.url}/`);
  await lesser.getByRole('textbox', { name: 'Token' }).fill(dashboard.userToken(wes.id));
  await lesser.getByRole('button', { name: 'Use token' }).click();
  await lesser.getByRole('link', { name: 'Users' }).click();
  const olga = row('users', 'Olga Owner', lesser);
  await olga.waitFor();
  const remove = olga.getByRole('button', { name: 'Delete Olga Owner' });
  t.is(await remove.isDisabled(), true, 'delete needs iam:admin');
  t.is(await remove.getAttribute('title'), 'needs the permission iam:admin');

  // Touching an owner is refused: the reason shows beside the button.
  await olga.getByRole('button', { name: 'Deactivate Olga Owner' }).click();
  await olga.getByRole('alert').waitFor();
  t.truthy(await olga.getByRole('alert').textContent(), 'the refusal is said in the row');
  t.is((await dashboard.api('GET', '/api/v1/users?email=olga@example.com'))[0].is_active, true, 'nothing changed');

  // Handing out a custom role with more than Wes holds: the 403 says so, with the role's name, not its id.
  await lesser.getByRole('button', { name: 'Invite user' }).click();
  const form = lesser.getByRole('form', { name: 'Invite a user' });
  await form.getByLabel('Email').fill('eve@example.com');
  await form.getByLabel('Name', { exact: true }).fill('Eve Escalation');
  await form.getByLabel('Role').selectOption({ label: 'Rota editor' });
  await form.getByRole('button', { name: 'Send invitation' }).click();
  const refusal = form.getByRole('alert');
  await refusal.waitFor();
  const said = (await refusal.textContent()) ?? '';
  t.regex(said, /Rota editor.*schedules:write.*iam:admin/, 'the refusal names the role and the permission');
  t.notRegex(said, /[0-9a-f]{8}-[0-9a-f]{4}-/, 'no UUID where a name is known');
  t.deepEqual(await dashboard.api('GET', '/api/v1/users?email=eve@example.com'), [], 'nobody was created');
  await noSeriousViolations(t, 'a refusal for an iam:write user', lesser);
  t.is(await sidewaysOverflow(lesser, 360), 0, 'the refused form fits 360 px');
  await form.getByRole('button', { name: 'Cancel' }).click();

  await lesser.getByRole('link', { name: 'Roles' }).click();
  const newRole = lesser.getByRole('button', { name: 'New role' });
  t.is(await newRole.isDisabled(), true);
  t.is(await newRole.getAttribute('title'), 'needs the permission iam:admin');
  await lesser.close();
});

suite(`the tenant defaults are saved with the same checkboxes${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Roles' }).click();
  await page.getByText('Tenant defaults (for permissions no role or group decides)').click();
  const form = page.getByRole('form', { name: 'Tenant permission defaults' });
  await form.getByLabel('Allow assistant:ask').check();
  await form.getByLabel('Deny simulator:write').check();
  await noSeriousViolations(t, 'tenant defaults open');
  await form.getByRole('button', { name: 'Save defaults' }).click();
  await form.getByRole('status').waitFor();
  t.deepEqual((await dashboard.api('GET', '/api/v1/tenant/permission-defaults')).permissions, {
    'assistant:ask': 'allow',
    'simulator:write': 'deny',
  });
});

suite(`deactivate, reactivate, and delete a user after a confirmation in the row${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Users' }).click();
  const ada = row('users', 'Ada Lovelace');
  await ada.getByRole('button', { name: 'Deactivate Ada Lovelace' }).click();
  await ada.getByRole('button', { name: 'Reactivate Ada Lovelace' }).waitFor();
  t.regex((await ada.textContent()) ?? '', /deactivated/);
  t.is((await dashboard.api('GET', '/api/v1/users?email=ada@example.com'))[0].is_active, false);
  await ada.getByRole('button', { name: 'Reactivate Ada Lovelace' }).click();
  await ada.getByRole('button', { name: 'Deactivate Ada Lovelace' }).waitFor();
  t.is((await dashboard.api('GET', '/api/v1/users?email=ada@example.com'))[0].is_active, true);

  await ada.getByRole('button', { name: 'Delete Ada Lovelace' }).click();
  await noSeriousViolations(t, 'the delete confirmation');
  await ada.getByRole('button', { name: 'Yes, delete Ada Lovelace' }).click();
  await ada.waitFor({ state: 'detached' });
  t.deepEqual(await dashboard.api('GET', '/api/v1/users?email=ada@example.com'), []);
});
