/** Types of event-chain.mjs (plain JavaScript, so an auditor needs nothing but Node to check a history). */
export function canonicalJson(value: unknown): string;
export function chainHashOfCanonical(
  stream: string,
  revision: bigint | number | string,
  type: string,
  dataJson: string,
  metadataJson: string,
  previousHash: string | null,
): string;
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
  /** The event's global position: needed to judge a missing hash against the log's chain start. */
  position?: bigint | number | string;
}

export interface ChainBreak {
  stream: string;
  revision: string;
  kind: 'content' | 'link' | 'gap' | 'unhashed' | 'start';
  /** content: the hash recorded with the event; link: the previous event's hash; gap, start: the revision due. */
  expected: string | null;
  /** content: the hash of the event as it is now; link: the previous hash recorded with the event. */
  found: string | null;
}

/** `chainStart`: the log's first position from which every event carries a hash; null (the default) for a legacy log. */
export function chainChecker(options?: { chainStart?: bigint | number | string | null }): {
  totals: { events: number; unhashed: number; streams: number };
  check(event: ChainedEvent): ChainBreak | undefined;
};
