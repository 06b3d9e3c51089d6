/**
 * What every medium says about an incident that has no rule and no reading (a heartbeat, rules whose
 * reads fail, the platform): its title and detail, never "null" or a made-up number.
 */
import test from 'ava';
import { alertSummary, alertTextBody } from '../src/gateways/notify/alert-text.js';
import { chatMessage } from '../src/gateways/notify/chat-message.js';
import { alertEmail } from '../src/gateways/notify/email-message.js';
import { pagerEvent } from '../src/gateways/notify/pager-event.js';
import { webhookPayload } from '../src/gateways/notify/webhook-payload.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';

const missedHeartbeat = alertMessage({
  source: 'heartbeat',
  title: 'Nightly load did not check in',
  detail: 'no ping for 70 minutes (expected every 60, grace 5)',
  severity: 'high',
  ruleName: null,
  metric: null,
  currentValue: null,
  threshold: null,
  condition: undefined,
  cluster: null,
});

test('the summary line gives the title and the detail, not a reading', (t) => {
  t.is(
    alertSummary(missedHeartbeat),
    '[HIGH] Triggered: Nightly load did not check in (no ping for 70 minutes (expected every 60, grace 5))',
  );
  const body = alertTextBody(missedHeartbeat);
  t.regex(body, /^Source: {4}heartbeat$/m);
  t.regex(body, /^Detail: {4}no ping for 70 minutes/m);
  t.notRegex(body, /null|NaN|Metric:/);
});

test('a rule incident reads as before', (t) => {
  t.is(
    alertSummary(alertMessage()),
    '[CRITICAL] Triggered: Disk usage high (disk_used_percent 93.5 > 90) on prod-analytics',
  );
  t.regex(alertTextBody(alertMessage()), /^Rule: {6}Disk usage high$/m);
});

test('the default email subject of an incident without a reading is its title', (t) => {
  const options = { from: 'watch@example.com', recipients: ['a@example.com'], idempotencyKey: 'd-1' };
  const email = alertEmail(missedHeartbeat, options);
  t.is(email.subject, '[high] triggered: Nightly load did not check in');
  const templated = alertEmail(missedHeartbeat, {
    ...options,
    subjectTemplate: '{{source}}: {{title}} / {{rule_name}} {{current_value}}',
  });
  t.is(templated.subject, 'heartbeat: Nightly load did not check in / Nightly load did not check in -');
});

test('chat, pager and webhook carry source, title and detail', (t) => {
  const chat = JSON.stringify(chatMessage(missedHeartbeat));
  t.true(chat.includes('Triggered: Nightly load did not check in'));
  t.true(chat.includes('no ping for 70 minutes'));
  t.false(chat.includes('null'));
  const pager = pagerEvent(missedHeartbeat, { integration_key: 'k'.repeat(32), severity_mapping: {} });
  t.like((pager as { payload: object }).payload, {
    component: 'heartbeat',
    class: 'heartbeat',
    custom_details: { source: 'heartbeat', title: 'Nightly load did not check in', current_value: null },
  });
  t.like(webhookPayload(missedHeartbeat, 'd-1').incident, {
    source: 'heartbeat',
    title: 'Nightly load did not check in',
    detail: 'no ping for 70 minutes (expected every 60, grace 5)',
    rule_name: null,
    metric: null,
    current_value: null,
    threshold: null,
  });
});
