/**
 * The directory a stage's targets are resolved through, built from plain reads, in two forms:
 *
 * - `directoryOver(reads)`: every lookup reads again. The escalation manager's: a stage that fires
 *   at 10:00 must see the schedule and the people as they are at 10:00.
 * - `requestDirectory(reads, pause)`: one escalation preview's. Every user, group, channel and
 *   schedule is read once per request, a schedule compiled once, and whoever is on call resolved
 *   once per (schedule, instant), however many stages, targets and cycles name them; the work is
 *   proportional to what is distinct. Each on-call computation waits its turn of the time slice
 *   (src/time-slice.ts), so a large preview shares the thread with /health and the evaluator.
 */
import type { CompiledSchedule } from '../../oncall/compiled-schedule.js';
import { onCallAtInstant } from '../../oncall/current-on-call.js';
import { noPause, type Pause } from '../../time-slice.js';
import type { ContactChannel, ContactUser, OnCallContact, TargetDirectory } from './target-resolution.js';

/** A schedule as on-call resolution needs it: compiled against its active users, who are reachable here. */
export interface ScheduleForOnCall {
  compiled: CompiledSchedule;
  /** The schedule's active users by id. */
  contacts: Map<string, ContactUser>;
  /** Its work units for the preview budget: 1 + the people across its layers + its overrides (see escalation-preview.ts). */
  units: number;
}

/** The reads behind a directory, each scoped to the tenant; one read per call. */
export interface DirectoryReads {
  user(tenantId: string, userId: string): Promise<ContactUser | null>;
  activeGroupMembers(tenantId: string, groupId: string): Promise<ContactUser[] | null>;
  channel(tenantId: string, channelId: string): Promise<ContactChannel | null>;
  schedule(tenantId: string, scheduleId: string): Promise<ScheduleForOnCall | null>;
}

/** A preview's directory: also says how much work a schedule is, before any on-call is resolved. */
export interface PreviewDirectory extends TargetDirectory {
  /** The schedule's work units, or null when the tenant has no such schedule. */
  scheduleUnits(tenantId: string, scheduleId: string): Promise<number | null>;
}

/** Who is on call in a loaded schedule at `at`, and which layer or override put them there. */
function onCallContact(schedule: ScheduleForOnCall, at: Date): OnCallContact | null {
  const current = onCallAtInstant(schedule.compiled, at);
  // Which layer or override: the escalation preview says why this person is paged.
  return current && { ...schedule.contacts.get(current.userId)!, source: current.source };
}

export function directoryOver(reads: DirectoryReads, pause: Pause = noPause): PreviewDirectory {
  return {
    user: (tenantId, userId) => reads.user(tenantId, userId),
    activeGroupMembers: (tenantId, groupId) => reads.activeGroupMembers(tenantId, groupId),
    channel: (tenantId, channelId) => reads.channel(tenantId, channelId),
    async onCall(tenantId, scheduleId, at) {
      const schedule = await reads.schedule(tenantId, scheduleId);
      if (!schedule) return 'no_schedule';
      await pause();
      return onCallContact(schedule, at);
    },
    scheduleUnits: async (tenantId, scheduleId) => (await reads.schedule(tenantId, scheduleId))?.units ?? null,
  };
}

/** Calls with equal keys share the first call's promise (a failure too: the request fails once). */
function once<A extends unknown[], R>(
  call: (...args: A) => Promise<R>,
  key: (...args: A) => string,
): (...args: A) => Promise<R> {
  const answers = new Map<string, Promise<R>>();
  return (...args) => {
    const k = key(...args);
    let answer = answers.get(k);
    if (!answer) answers.set(k, (answer = call(...args)));
    return answer;
  };
}

const byId = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

/** Each read once per request (see the file comment); `onCall` once per (schedule, instant). */
export function memoisedDirectory(directory: PreviewDirectory): PreviewDirectory {
  return {
    user: once((tenantId: string, id: string) => directory.user(tenantId, id), byId),
    activeGroupMembers: once((tenantId: string, id: string) => directory.activeGroupMembers(tenantId, id), byId),
    channel: once((tenantId: string, id: string) => directory.channel(tenantId, id), byId),
    onCall: once(
      (tenantId: string, id: string, at: Date) => directory.onCall(tenantId, id, at),
      (tenantId, id, at) => `${byId(tenantId, id)}\u0000${at.getTime()}`,
    ),
    scheduleUnits: once((tenantId: string, id: string) => directory.scheduleUnits(tenantId, id), byId),
  };
}

/** One preview request's directory: reads once, resolves once per (schedule, instant), yields between slices. */
export function requestDirectory(reads: DirectoryReads, pause: Pause): PreviewDirectory {
  const cached: DirectoryReads = {
    user: once((tenantId: string, id: string) => reads.user(tenantId, id), byId),
    activeGroupMembers: once((tenantId: string, id: string) => reads.activeGroupMembers(tenantId, id), byId),
    channel: once((tenantId: string, id: string) => reads.channel(tenantId, id), byId),
    // Compiling a large schedule takes milliseconds: each waits its turn of the slice too.
    schedule: once(async (tenantId: string, id: string) => {
      await pause();
      return reads.schedule(tenantId, id);
    }, byId),
  };
  return memoisedDirectory(directoryOver(cached, pause));
}
