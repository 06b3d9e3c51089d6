/** Types of event-chain.mjs (plain JavaScript, so an auditor needs nothing but Node to check a history). */
export function canonicalJson(value: unknown): string;
export function chainHashOfCanonical(stream: string, revision: bigint | number | string, type: string, dataJson: string, metadataJson: string, previousHash: string | null): string;
export function chainHash(event: {
  stream: string;
  revision: bigint | number | string;
  type: string;
  data: unknown;
  metadata: unknown;
  previousHash: string | null;
}): string;
