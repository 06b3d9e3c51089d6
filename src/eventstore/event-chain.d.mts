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

export interface ChainedEvent {
  stream: string;
  revision: bigint | number | string;
  type: string;
  data: unknown;
  metadata: unknown;
  /** null or absent: written before the chain existed. */
  hash?: string | null;
  previousHash?: string | null;
}

export interface ChainBreak {
  stream: string;
  revision: string;
  kind: 'content' | 'link' | 'gap' | 'unhashed';
  /** content: the hash recorded with the event; link: the previous event's hash; gap: the revision due. */
  expected: string | null;
  /** content: the hash of the event as it is now; link: the previous hash recorded with the event. */
  found: string | null;
}

export function chainChecker(): {
  totals: { events: number; unhashed: number; streams: number };
  check(event: ChainedEvent): ChainBreak | undefined;
};
