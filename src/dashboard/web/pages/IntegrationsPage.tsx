/**
 * Integrations (issue 40): the senders outside the platform that open incidents (PagerDuty's
 * Events API v2 from Alertmanager, Grafana, Airflow, dbt Cloud; Alertmanager's webhook; SNS; any
 * JSON). The list says when each last sent and how much; a writer (`integrations:write`) creates,
 * edits, makes a new key (the old one keeps working a day), revokes and deletes. A new key is
 * shown once, here, with its address, to copy. "Received" shows the incidents an integration's
 * senders opened; "Page someone" opens an incident by hand (`incidents:write`).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Incident, Integration, IntegrationWithKey } from '../api/types';
import { ActionButton } from '../components/ActionButton';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ErrorNote } from '../components/ErrorNote';
import { IntegrationAlerts } from '../components/IntegrationAlerts';
import { IntegrationEditor } from '../components/IntegrationEditor';
import { IntegrationKey } from '../components/IntegrationKey';
import { PageSomeone } from '../components/PageSomeone';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';
import { time } from '../format';
import { INTEGRATION_KIND_WORDS, severityMapWords } from '../integration-words';

type Editing = { kind: 'new' } | { kind: 'edit'; integrationId: string } | { kind: 'page' } | undefined;

/** How long a replaced key keeps working, so senders can be moved to the new one. */
const ROTATION_GRACE_SECONDS = 24 * 3600;

export function IntegrationsPage() {
  const { calls, can } = useSession();
  const loaded = useLoad(() => calls.integrations(), []);
  const policies = useLoad(() => calls.policyNames(), []);
  const [integrations, setIntegrations] = useState<Integration[]>([]);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [shownKey, setShownKey] = useState<IntegrationWithKey | undefined>(undefined);
  const [received, setReceived] = useState<string | undefined>(undefined);
  const [paged, setPaged] = useState<Incident | undefined>(undefined);
  const [outcome, setOutcome] = useState('');
  useEffect(() => setIntegrations(loaded.value ?? []), [loaded.value]);
  const policyNames = useMemo(() => new Map((policies.value ?? []).map((p) => [p.id, p.name])), [policies.value]);
  const writer = can('integrations:write');
  const put = (integration: Integration) =>
    setIntegrations((current) => [integration, ...current.filter((i) => i.id !== integration.id)]);
  const withKey = (integration: IntegrationWithKey, words: string) => {
    const { routing_key: _key, events_url: _url, ...plain } = integration;
    put(plain);
    setShownKey(integration);
    setOutcome(words);
  };
  const shownAlerts = integrations.find((i) => i.id === received);
  return (
    <section>
      <h1>
        Integrations{' '}
        {writer && editing?.kind !== 'new' ? (
          <button type="button" class="button primary" onClick={() => (setOutcome(''), setEditing({ kind: 'new' }))}>
            New integration
          </button>
        ) : null}{' '}
        {can('incidents:write') && editing?.kind !== 'page' ? (
          <button type="button" class="button" onClick={() => (setPaged(undefined), setEditing({ kind: 'page' }))}>
            Page someone
          </button>
        ) : null}
      </h1>
      <p class="hint">
        An integration takes alerts from outside: each opens an incident that pages its escalation policy, once per
        dedup key while the incident is open. Point the sender at its address with its routing key.
      </p>
      <p role="status" class="muted" data-testid="integrations-outcome">
        {outcome}
        {paged ? (
          <>
            {' '}
            <a href={`#/incidents/${paged.id}`}>{paged.title}</a>
          </>
        ) : null}
      </p>
      {shownKey ? <IntegrationKey integration={shownKey} onDone={() => setShownKey(undefined)} /> : null}
      {editing?.kind === 'page' ? (
        <PageSomeone
          policies={policies.value}
          onPaged={(incident) => (setPaged(incident), setOutcome('Paged:'), setEditing(undefined))}
          onClose={() => setEditing(undefined)}
        />
      ) : editing ? (
        <IntegrationEditor
          key={editing.kind === 'edit' ? editing.integrationId : 'new'}
          integrationId={editing.kind === 'edit' ? editing.integrationId : undefined}
          policies={policies.value}
          onCreated={(integration) => (withKey(integration, `Created ${integration.name}`), setEditing(undefined))}
          onSaved={(integration) => (put(integration), setOutcome(`Saved ${integration.name}`), setEditing(undefined))}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
      <ErrorNote error={loaded.error ?? policies.error} />
      {loaded.value && integrations.length === 0 ? <p class="empty">No integrations yet.</p> : null}
      {integrations.length > 0 ? (
        <table class="grid" data-testid="integrations">
          <thead>
            <tr>
              <th>Integration</th>
              <th>Routing key</th>
              <th>Last event</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {integrations.map((integration) => (
              <tr key={integration.id} data-integration-id={integration.id}>
                <td data-label="Integration">
                  <strong>{integration.name}</strong>
                  <div class="muted">
                    {INTEGRATION_KIND_WORDS[integration.kind]}; pages{' '}
                    {policyNames.get(integration.escalation_policy_id) ?? 'a deleted policy'}
                  </div>
                  <div class="muted">{severityMapWords(integration)}</div>
                </td>
                <td data-label="Routing key" data-testid="integration-key-hint">
                  {integration.routing_key_hint ?? 'revoked'}
                  {integration.previous_key_valid_until ? (
                    <div class="muted">the previous key works until {time(integration.previous_key_valid_until)}</div>
                  ) : null}
                </td>
                <td data-label="Last event" data-testid="integration-last-event">
                  {time(integration.last_event_at)}
                  <div class="muted">{integration.events_received} received</div>
                </td>
                <td>
                  <button
                    type="button"
                    class="button"
                    aria-label={`Received by ${integration.name}`}
                    aria-pressed={received === integration.id}
                    onClick={() => setReceived(received === integration.id ? undefined : integration.id)}
                  >
                    Received
                  </button>
                  {writer ? (
                    <>
                      <button
                        type="button"
                        class="button"
                        aria-label={`Edit ${integration.name}`}
                        onClick={() => (setOutcome(''), setEditing({ kind: 'edit', integrationId: integration.id }))}
                      >
                        Edit
                      </button>
                      <ActionButton
                        label={`New key for ${integration.name}`}
                        permission="integrations:write"
                        action={async () =>
                          withKey(
                            await calls.rotateIntegrationKey(integration.id, { grace_seconds: ROTATION_GRACE_SECONDS }),
                            `New key for ${integration.name}: the old one works for one more day`,
                          )
                        }
                      />
                      <ActionButton
                        label={`Revoke the key of ${integration.name}`}
                        permission="integrations:write"
                        disabled={!integration.has_routing_key}
                        action={async () => {
                          put(await calls.revokeIntegrationKey(integration.id));
                          setShownKey((shown) => (shown?.id === integration.id ? undefined : shown));
                          setOutcome(`Revoked the key of ${integration.name}: its senders are refused`);
                        }}
                      />
                    </>
                  ) : null}
                  <ConfirmDelete
                    name={integration.name}
                    permission="integrations:write"
                    remove={async () => {
                      await calls.deleteIntegration(integration.id);
                      setIntegrations((current) => current.filter((i) => i.id !== integration.id));
                      setOutcome(`Deleted ${integration.name}`);
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {shownAlerts ? <IntegrationAlerts key={shownAlerts.id} integration={shownAlerts} /> : null}
    </section>
  );
}
