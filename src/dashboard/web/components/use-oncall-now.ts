/**
 * Who is on call now for each of some schedules (GET /api/v1/schedules/{id}/current-oncall, which
 * needs schedules:read): read again when `round` changes (the page passes what it follows, e.g.
 * the incident's last change) and at the earliest handover among them, so the answer never goes
 * stale on a page left open.
 */
import { useEffect, useState } from 'preact/hooks';
import type { CurrentOncall } from '../api/types';
import { useSession } from './session-context';

export type OncallNow = ReadonlyMap<string, CurrentOncall | { error: string }>;

/** setTimeout's longest delay; a handover further off is re-checked then. */
const MAX_TIMER_MS = 2_147_483_647;

export function useOncallNow(scheduleIds: string[], round: unknown): OncallNow | undefined {
  const { calls, can } = useSession();
  const allowed = can('schedules:read');
  const [answers, setAnswers] = useState<OncallNow | undefined>(undefined);
  const [handover, setHandover] = useState(0);
  const key = scheduleIds.join(',');
  useEffect(() => {
    if (!allowed || scheduleIds.length === 0) return undefined;
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void Promise.all(
      scheduleIds.map((id) =>
        calls.currentOncall(id).then(
          (answer): [string, CurrentOncall | { error: string }] => [id, answer],
          (failure: Error): [string, CurrentOncall | { error: string }] => [id, { error: failure.message }],
        ),
      ),
    ).then((read) => {
      if (!current) return;
      setAnswers(new Map(read));
      const ends = read.flatMap(([, answer]) =>
        'current_oncall' in answer && answer.current_oncall?.on_call_until
          ? [Date.parse(answer.current_oncall.on_call_until)]
          : [],
      );
      if (ends.length > 0)
        timer = setTimeout(
          () => setHandover((n) => n + 1),
          Math.min(MAX_TIMER_MS, Math.max(1000, Math.min(...ends) - Date.now() + 1000)),
        );
    });
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [calls, allowed, key, round, handover]);
  return allowed ? answers : undefined;
}
