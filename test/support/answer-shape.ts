/**
 * Where an answer's payload is: SPEC.md names the top-level fields of a few answers (sync status
 * and trigger, a channel test, current on-call, slow queries, storage, /ask), which therefore carry
 * no `{ success, data }` envelope; every other success is enveloped. Tests that walk several
 * endpoints read payloads through this, so they hold for both shapes.
 */
const BARE_PATHS = [
  /\/sync\/status$/,
  /\/sync\/trigger$/,
  /\/notification-channels\/[^/]+\/test$/,
  /\/schedules\/[^/]+\/current-oncall$/,
  /\/warehouse\/queries\/slow$/,
  /\/warehouse\/storage$/,
  /^(\/api\/v1)?\/ask$/,
];

export const answersBare = (path: string): boolean => BARE_PATHS.some((pattern) => pattern.test(path.split('?')[0]!));

/** The payload of a success: the body itself where SPEC.md names the top-level fields, else `data`. */
export const payloadOf = (path: string, body: any): any => (answersBare(path) ? body : body?.data);
