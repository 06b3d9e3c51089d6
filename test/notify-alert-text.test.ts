import test from 'ava';
import { alertSummary, formatNumber, valueAgainstThreshold } from '../src/gateways/notify/alert-text.js';
import { describeTarget, maskEmail, maskPhone } from '../src/gateways/notify/target-description.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';

test('numbers are shown without float noise', (t) => {
  t.deepEqual([0.1 + 0.2, 90, -3.25, 1 / 3, 1e21, Number.NaN].map(formatNumber), [
    '0.3',
    '90',
    '-3.25',
    '0.333333',
    '1e+21',
    'NaN',
  ]);
});

const comparisons: Array<[Parameters<typeof alertMessage>[0], string]> = [
  [{ condition: 'gt', currentValue: 95, threshold: 90 }, '95 > 90'],
  [{ condition: 'gt', currentValue: 70, threshold: 90 }, '70 (threshold > 90)'],
  [{ condition: 'lte', currentValue: 5, threshold: 5 }, '5 ≤ 5'],
  [{ condition: 'eq', currentValue: 0, threshold: 0 }, '0 = 0'],
  [{ condition: undefined, currentValue: 95, threshold: 90 }, '95 (threshold 90)'],
];
for (const [overrides, expected] of comparisons) {
  test(`value against threshold: ${expected}`, (t) => {
    t.is(valueAgainstThreshold(alertMessage(overrides)), expected);
  });
}

test('the one-line summary names severity, status, rule, metric, value and cluster', (t) => {
  t.is(
    alertSummary(alertMessage({ status: 'acknowledged', cluster: null, severity: 'low' })),
    '[LOW] Acknowledged: Disk usage high (disk_used_percent 93.5 > 90)',
  );
});

test('targets are described without secrets or whole personal data', (t) => {
  t.is(maskEmail('grace.hopper@example.com'), 'g***@example.com');
  t.is(maskEmail('nonsense'), '***');
  t.is(maskPhone('+447700900123'), '+44*******123');
  t.is(describeTarget({ medium: 'email', config: { recipients: ['a@x.io', 'bob@y.io'] } }), 'a***@x.io,b***@y.io');
  t.is(
    describeTarget({ medium: 'pager', channelId: 'p', config: { integration_key: 'SECRET', severity_mapping: {} } }),
    'channel:p',
  );
});
