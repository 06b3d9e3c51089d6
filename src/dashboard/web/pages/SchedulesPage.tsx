/**
 * On-call schedules, managed: the list (who is on call now, each layer's rotation by name, the
 * overrides still to come), create, edit and delete with the schedule editor, whose preview shows
 * the next 14 days before saving. Reading needs schedules:read; every write button follows
 * schedules:write. The read-only two-week view of every schedule stays at #/oncall.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { ScheduleDetail, UserName } from '../api/types';
import { time } from '../format';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ErrorNote } from '../components/ErrorNote';
import { nameOf } from '../components/LayerEditor';
import { ScheduleEditor } from '../components/ScheduleEditor';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';

type Editing =
  | { kind: 'none' }
  | { kind: 'new' }
  | { kind: 'edit'; schedule: ScheduleDetail; etag: string | null; round: number };

function OnCallNow({ scheduleId, updatedAt }: { scheduleId: string; updatedAt: string }) {
  const { calls } = useSession();
  const now = useLoad(() => calls.currentOncall(scheduleId), [scheduleId, updatedAt]);
  if (now.error) return <span class="error">{now.error}</span>;
  if (!now.value) return <span class="loading">…</span>;
  const person = now.value.current_oncall;
  if (!person) return <span class="muted">nobody</span>;
  return (
    <>
      <strong>{person.name}</strong>{' '}
      <span class="muted">
        {person.on_call_until ? `until ${time(person.on_call_until)}` : 'no handoff ahead'} ({person.source})
      </span>
    </>
  );
}

function Rotation({ schedule, people }: { schedule: ScheduleDetail; people: UserName[] }) {
  return (
    <ol class="stages-summary">
      {schedule.layers.map((layer, index) => (
        <li key={index}>
          {layer.rotation_type}: {layer.user_ids.map((id) => nameOf(people, id)).join(' → ')}
        </li>
      ))}
    </ol>
  );
}

function UpcomingOverrides({ schedule, people }: { schedule: ScheduleDetail; people: UserName[] }) {
  const now = Date.now();
  const ahead = schedule.overrides.filter((o) => Date.parse(o.end) > now);
  if (ahead.length === 0) return <span class="muted">none ahead</span>;
  return <>{ahead.map((o) => `${nameOf(people, o.user_id)} ${time(o.start)} → ${time(o.end)}`).join('; ')}</>;
}

export function SchedulesPage() {
  const { calls, can } = useSession();
  const loaded = useLoad(() => calls.scheduleDetails(), []);
  const people = useLoad(() => calls.userNames(), []);
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const writable = can('schedules:write');
  const schedules = loaded.value ?? [];
  const names = people.value ?? [];
  const [opening, setOpening] = useState<string | undefined>(undefined);
  const saved = () => (setEditing({ kind: 'none' }), loaded.reload());
  /** The editor starts from the schedule as it is now, with its ETag (a save then cannot drop someone else's change unseen). */
  const edit = async (scheduleId: string, round = 0) => {
    setOpening(undefined);
    try {
      const { data, etag } = await calls.schedule(scheduleId);
      setEditing({ kind: 'edit', schedule: data, etag, round });
    } catch (failure) {
      setOpening((failure as Error).message);
    }
  };
  const remove = async (schedule: ScheduleDetail) => {
    try {
      await calls.deleteSchedule(schedule.id);
    } catch (failure) {
      // A policy still pages this schedule: the API names the policies; say what to do about it.
      if (failure instanceof ApiError && failure.status === 409)
        throw new Error(`Not deleted: ${failure.message}. Take it out of those policies (Policies page) first.`);
      throw failure;
    }
    loaded.reload();
  };

  return (
    <section>
      <h1>
        Schedules
        {writable && editing.kind === 'none' ? (
          <button type="button" class="button primary" onClick={() => setEditing({ kind: 'new' })}>
            New schedule
          </button>
        ) : null}
      </h1>
      {editing.kind !== 'none' ? (
        <ScheduleEditor
          key={editing.kind === 'edit' ? `${editing.schedule.id}-${editing.round}` : 'new'}
          editing={editing.kind === 'edit' ? editing : undefined}
          people={names}
          onSaved={saved}
          onCancel={() => setEditing({ kind: 'none' })}
          onReload={() => editing.kind === 'edit' && void edit(editing.schedule.id, editing.round + 1)}
        />
      ) : null}
      {loaded.loading && !loaded.value ? <p class="loading">Loading schedules…</p> : null}
      <ErrorNote error={loaded.error ?? people.error ?? opening} />
      {loaded.value && schedules.length === 0 ? (
        <p class="empty">No schedules yet.{writable ? ' Create one, then page it from an escalation policy.' : ''}</p>
      ) : null}
      {schedules.length > 0 ? (
        <table class="grid" data-testid="schedules">
          <thead>
            <tr>
              <th>Name</th>
              <th>On call now</th>
              <th>Rotation</th>
              <th>Overrides</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {schedules.map((schedule) => (
              <tr key={schedule.id}>
                <td data-label="Name">
                  {schedule.name} <span class="muted">{schedule.timezone}</span>
                </td>
                <td data-label="On call now">
                  <OnCallNow scheduleId={schedule.id} updatedAt={schedule.updated_at} />
                </td>
                <td data-label="Rotation">
                  <Rotation schedule={schedule} people={names} />
                </td>
                <td data-label="Overrides">
                  <UpcomingOverrides schedule={schedule} people={names} />
                </td>
                <td data-label="Actions">
                  {writable ? (
                    <>
                      <button
                        type="button"
                        class="button plain"
                        aria-label={`Edit ${schedule.name}`}
                        onClick={() => void edit(schedule.id)}
                      >
                        Edit
                      </button>
                      <ConfirmDelete
                        name={schedule.name}
                        permission="schedules:write"
                        remove={() => remove(schedule)}
                      />
                    </>
                  ) : (
                    <span class="muted">read only</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p class="hint">
        Every schedule's next two weeks: <a href="#/oncall">On call</a>.
      </p>
    </section>
  );
}
