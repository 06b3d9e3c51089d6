/**
 * One convention for unset optional strings in answers: `null`, never `""` and never absent, so
 * clients test one thing. Some events store "" for "not given" (role and group descriptions);
 * views pass every optional string through this.
 */
export const optionalString = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value === '' ? null : value;
