/**
 * The intake keeps each key's open incident between events (src/process/inbound/alert-intake.ts).
 * Given two intakes on one log (two instances), when one resolves a key the other has kept open,
 * then the other's next trigger of that key opens a new incident instead of counting a repeat on
 * the resolved one, exactly as without the keeping; and its acknowledgements still land.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { emptySender } from '../commands/receiver-alert.js';
import { alertIntake } from '../src/process/inbound/alert-intake.js';
import type { NormalizedAlert } from '../src/events/inbound-alert.js';
import { evaluatorStores } from './support/evaluator-stores.js';

const alert = (integrationId: string, action: NormalizedAlert['action']): NormalizedAlert => ({
  integrationId,
  dedupKey: 'nightly_load-copy_orders',
  action,
  title: action === 'trigger' ? 'Nightly load late' : null,
  severity: 'high',
  sender: { ...emptySender(), source: 'airflow', severity: 'error' },
});

test('a resolution by another instance is seen by an intake that kept the key open', async (t) => {
  const stores = await evaluatorStores('ww-intake-');
  t.teardown(() => stores.close());
  const deps = {
    eventStore: stores.eventStore,
    reader: stores.readStore,
    now: () => new Date(),
    waitForProjections: (position: bigint) => stores.runner.waitFor(position, 5000),
  };
  const [first, second] = [alertIntake(deps), alertIntake(deps)];
  const tenantId = randomUUID();
  const integrationId = randomUUID();
  const policyId = randomUUID();

  const opened = await first(tenantId, alert(integrationId, 'trigger'), policyId, 'c1');
  t.is(opened.outcome, 'opened');
  t.is((await first(tenantId, alert(integrationId, 'trigger'), policyId, 'c2')).outcome, 'repeated', 'kept, open');

  const resolved = await second(tenantId, alert(integrationId, 'resolve'), policyId, 'c3');
  t.like(resolved, { outcome: 'resolved', incidentId: opened.incidentId });

  const reopened = await first(tenantId, alert(integrationId, 'trigger'), policyId, 'c4');
  t.is(reopened.outcome, 'opened', 'the resolution was seen: a new incident, not a repeat on the resolved one');
  t.not(reopened.incidentId, opened.incidentId);

  t.is((await second(tenantId, alert(integrationId, 'acknowledge'), policyId, 'c5')).outcome, 'acknowledged');
  t.like(await first(tenantId, alert(integrationId, 'resolve'), policyId, 'c6'), {
    outcome: 'resolved',
    incidentId: reopened.incidentId,
  });
});
