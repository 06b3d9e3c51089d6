/** A sample alert message for delivery tests. */
import type { AlertMessage } from '../../../src/gateways/notify/port.js';

export const alertMessage = (overrides: Partial<AlertMessage> = {}): AlertMessage => ({
  incidentId: '7d0c1a52-3f7b-4c1e-9a43-0b6f1f0e2a11',
  status: 'triggered',
  severity: 'critical',
  source: 'rule',
  // A rule incident's title is its rule's name.
  title: overrides.ruleName ?? 'Disk usage high',
  detail: null,
  ruleName: 'Disk usage high',
  metric: 'disk_used_percent',
  currentValue: 93.5,
  threshold: 90,
  condition: 'gt',
  cluster: 'prod-analytics',
  incidentUrl: 'https://watch.example.com/incidents/7d0c1a52-3f7b-4c1e-9a43-0b6f1f0e2a11',
  occurredAt: '2026-03-01T11:59:30.000Z',
  ...overrides,
});
