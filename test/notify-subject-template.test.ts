import test from 'ava';
import {
  DEFAULT_SUBJECT_TEMPLATE,
  renderSubject,
  SUBJECT_PLACEHOLDERS,
  unknownPlaceholders,
} from '../src/gateways/notify/subject-template.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';

test('unknown placeholders are listed once each, in order; known ones and plain text are not', (t) => {
  t.deepEqual(unknownPlaceholders(DEFAULT_SUBJECT_TEMPLATE), []);
  t.deepEqual(unknownPlaceholders(SUBJECT_PLACEHOLDERS.map((name) => `{{${name}}}`).join(' ')), []);
  t.deepEqual(unknownPlaceholders('{{ severity }} {{rule}} {{cluster}} {{rule}} {{}} {{Severity}}'), [
    'rule',
    'cluster',
    '',
    'Severity',
  ]);
  t.deepEqual(unknownPlaceholders('no placeholders, {single} braces, {{constructor}}'), ['constructor']);
});

test('rendering fills every placeholder and keeps the subject on one line', (t) => {
  const message = alertMessage({
    ruleName: 'Disk\r\nBcc: victim@example.com',
    currentValue: 0.1 + 0.2,
    threshold: 1e-3,
  });
  t.is(
    renderSubject('{{severity}}/{{rule_name}}/{{current_value}}/{{threshold}}/{{status}}', message),
    'critical/Disk Bcc: victim@example.com/0.3/0.001/triggered',
  );
  t.is(
    renderSubject('{{ metric }} {{unknown}} {{constructor}}', message),
    'disk_used_percent {{unknown}} {{constructor}}',
  );
});
