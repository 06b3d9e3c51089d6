import { createHash } from 'node:crypto';

/**
 * A name-based UUID (version 5 layout over SHA-1). The same name always gives the same id, so two
 * writers deciding the same thing (the rule's n-th incident) target the same stream and optimistic
 * concurrency lets exactly one of them create it.
 */
export function deterministicUuid(name: string): string {
  const bytes = createHash('sha1').update(`warehouse-watch:${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
