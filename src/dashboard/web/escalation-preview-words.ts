/**
 * How the "who gets paged?" panel says things (pure, so it is tested without a browser): which part
 * of an editor's draft can be asked about yet, when a stage fires in words, who a recipient or an
 * unreachable target is, and where a refused draft went wrong, said as the form's labels say it.
 */
import type { EscalationPolicyDraft, PreviewRecipient, PreviewStage, PreviewUnreachable } from './api/types.js';

/** The name every draft is previewed under. */
export const PREVIEW_NAME = 'Unsaved policy';

/** The draft to ask about, or why there is nothing to ask yet. */
export type Previewable = { kind: 'ask'; draft: EscalationPolicyDraft } | { kind: 'not-yet'; why: string };

/**
 * An editor's draft as the preview asks about it: a target not chosen yet is left out (its
 * neighbours still preview), and the name and description are left to the form (they do not change
 * who is paged, so typing them asks nothing, and a blank name is not a refused preview). A stage
 * with no chosen target at all cannot be asked about.
 */
export function previewableDraft(draft: EscalationPolicyDraft): Previewable {
  const stages = draft.stages.map((stage) => ({
    ...stage,
    targets: stage.targets.filter((target) => target.id !== ''),
  }));
  const empty = stages.flatMap((stage, index) => (stage.targets.length === 0 ? [index + 1] : []));
  if (empty.length > 0) {
    const which =
      empty.length === 1
        ? `stage ${empty[0]}`
        : `stages ${empty.slice(0, -1).join(', ')} and ${empty[empty.length - 1]}`;
    return { kind: 'not-yet', why: `Choose a target for ${which} to see who gets paged.` };
  }
  return { kind: 'ask', draft: { ...draft, name: PREVIEW_NAME, description: null, stages } };
}

/** "at once", "after 15 min", "after 1 h", "after 2 h 5 min". */
export function whenItFires(offsetMinutes: number): string {
  if (offsetMinutes <= 0) return 'at once';
  const hours = Math.floor(offsetMinutes / 60);
  const minutes = offsetMinutes % 60;
  if (hours === 0) return `after ${minutes} min`;
  return minutes === 0 ? `after ${hours} h` : `after ${hours} h ${minutes} min`;
}

/** "Stage 2", or "Stage 1, repeat 1" for a repeating policy's later cycles. */
export const stageTitle = (stage: Pick<PreviewStage, 'stage_order' | 'cycle'>) =>
  stage.cycle === 0 ? `Stage ${stage.stage_order}` : `Stage ${stage.stage_order}, repeat ${stage.cycle}`;

/** The clock time a stage fires, with the day when it is not the trigger's day (the browser's zone). */
export function fireClock(firesAt: string, at: string): string {
  const fires = new Date(firesAt);
  const clock = fires.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return fires.toDateString() === new Date(at).toDateString()
    ? clock
    : `${fires.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })} ${clock}`;
}

/** A person by name, a channel by its name; a target deleted since is said so. */
export const recipientName = (recipient: PreviewRecipient) =>
  recipient.person?.name ??
  recipient.channel?.name ??
  recipient.via.name ??
  `a ${recipient.via.type} that no longer exists`;

export const unreachableName = (unreachable: PreviewUnreachable) =>
  unreachable.person?.name ?? unreachable.via.name ?? `a ${unreachable.via.type} that no longer exists`;

/** Where a field error points, as the editor labels it: "stage 2 delay", "stage 1 target 2", "name". */
export function placeOf(path: string): string {
  const stage = /^\/stages\/(\d+)(?:\/(delay_minutes|targets)(?:\/(\d+))?)?/.exec(path);
  if (stage) {
    const n = Number(stage[1]) + 1;
    if (stage[2] === 'delay_minutes') return `stage ${n} delay`;
    if (stage[2] === 'targets')
      return stage[3] === undefined ? `stage ${n} targets` : `stage ${n} target ${Number(stage[3]) + 1}`;
    return `stage ${n}`;
  }
  if (path === '/repeat_interval_minutes') return 'repeat interval';
  if (path === '/stages') return 'stages';
  return path.replace(/^\//, '') || 'the policy';
}

/** A refused draft's problems (the ApiError's field errors), each once, in the form's words. */
export const problemsInWords = (errors: { path: string; message: string }[]) => [
  ...new Set(errors.map((error) => `${placeOf(error.path)}: ${error.message}`)),
];

/**
 * A datetime-local value as the instant it names in the browser's zone; '' (or a value not yet
 * complete) means now.
 */
export function instantOf(local: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(local)) return undefined;
  const instant = new Date(local);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}
