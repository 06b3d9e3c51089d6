/**
 * Escalation policies: list (stages and their targets by name), create, edit and delete with the
 * stage editor. Reading needs escalation:read; every write button follows escalation:write.
 * "Who gets paged?" on a row opens that policy's preview beneath it (escalation:read, like the list).
 */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { EscalationPolicy } from '../api/types';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ErrorNote } from '../components/ErrorNote';
import { EscalationPreviewPanel } from '../components/EscalationPreviewPanel';
import { PolicyEditor } from '../components/PolicyEditor';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';
import { targetName, usePolicyTargets, type TargetChoice } from '../components/use-policy-targets';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; policy: EscalationPolicy };

function StagesSummary({ policy, choices }: { policy: EscalationPolicy; choices: TargetChoice[] }) {
  return (
    <ol class="stages-summary">
      {policy.stages.map((stage) => (
        <li key={stage.stage_order}>
          {stage.delay_minutes === 0 ? 'at once' : `after ${stage.delay_minutes} min`}:{' '}
          {stage.targets
            .map(
              (target) =>
                `${targetName(choices, target.type, target.id)}${target.channels.length > 0 ? ` (${target.channels.join(', ')})` : ''}`,
            )
            .join('; ')}
        </li>
      ))}
    </ol>
  );
}

export function PoliciesPage() {
  const { calls, can } = useSession();
  const loaded = useLoad(() => calls.policies(), []);
  const choices = usePolicyTargets();
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [previewing, setPreviewing] = useState<string | null>(null);
  const writable = can('escalation:write');
  const policies = loaded.value ?? [];
  const saved = () => (setEditing({ kind: 'none' }), loaded.reload());

  return (
    <section>
      <h1>
        Escalation policies
        {writable && editing.kind === 'none' ? (
          <button type="button" class="button primary" onClick={() => setEditing({ kind: 'new' })}>
            New policy
          </button>
        ) : null}
      </h1>
      {editing.kind !== 'none' ? (
        <PolicyEditor
          key={editing.kind === 'edit' ? editing.policy.id : 'new'}
          policy={editing.kind === 'edit' ? editing.policy : undefined}
          choices={choices}
          onSaved={saved}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      ) : null}
      {loaded.loading && !loaded.value ? <p class="loading">Loading policies…</p> : null}
      <ErrorNote error={loaded.error} />
      {loaded.value && policies.length === 0 ? (
        <p class="empty">No escalation policies yet.{writable ? ' Create one, then name it in an alert rule.' : ''}</p>
      ) : null}
      {policies.length > 0 ? (
        <table class="grid" data-testid="policies">
          <thead>
            <tr>
              <th>Name</th>
              <th>Stages</th>
              <th>Repeats</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {policies.map((policy) => (
              <Fragment key={policy.id}>
                <tr>
                  <td data-label="Name">
                    {policy.name}
                    {policy.description ? <div class="muted">{policy.description}</div> : null}
                  </td>
                  <td data-label="Stages">
                    <StagesSummary policy={policy} choices={choices} />
                  </td>
                  <td data-label="Repeats">
                    {policy.repeat_interval_minutes === 0 ? 'no' : `every ${policy.repeat_interval_minutes} min`}
                  </td>
                  <td data-label="Actions">
                    {writable ? (
                      <>
                        <button
                          type="button"
                          class="button plain"
                          aria-label={`Edit ${policy.name}`}
                          onClick={() => setEditing({ kind: 'edit', policy })}
                        >
                          Edit
                        </button>
                        <ConfirmDelete
                          name={policy.name}
                          permission="escalation:write"
                          remove={async () => (await calls.deletePolicy(policy.id), loaded.reload())}
                        />
                      </>
                    ) : (
                      <span class="muted">read only</span>
                    )}
                    <button
                      type="button"
                      class="button plain"
                      aria-expanded={previewing === policy.id}
                      aria-label={`Who gets paged? ${policy.name}`}
                      onClick={() => setPreviewing(previewing === policy.id ? null : policy.id)}
                    >
                      Who gets paged?
                    </button>
                  </td>
                </tr>
                {previewing === policy.id ? (
                  <tr class="preview-row">
                    <td colSpan={4}>
                      <EscalationPreviewPanel subject={{ kind: 'saved', policyId: policy.id, name: policy.name }} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
