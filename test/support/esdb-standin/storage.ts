/**
 * In-memory storage of the EventStoreDB stand-in: one global log plus per-stream indexes.
 *
 * Every operation is synchronous, so an append is atomic with respect to reads and subscriptions
 * (nothing can interleave with it on the single JavaScript thread).
 */

/**
 * Distance between the positions of consecutive events. A real server's positions are byte
 * offsets in its transaction log, so an adapter must never assume "next position = position + 1";
 * a stride larger than one catches that mistake.
 */
const POSITION_STRIDE = 64n;

export interface StoredEvent {
  id: string;
  stream: string;
  revision: bigint;
  /** Commit position; the stand-in never uses explicit transactions, so prepare == commit. */
  position: bigint;
  type: string;
  contentType: string;
  data: Uint8Array;
  customMetadata: Uint8Array;
  createdMs: number;
}

export type ProposedEvent = Pick<StoredEvent, 'id' | 'type' | 'contentType' | 'data' | 'customMetadata'>;

export type ExpectedState = 'any' | 'no_stream' | 'stream_exists' | bigint;

export type AppendOutcome =
  | { ok: true; currentRevision: bigint | 'no_stream'; position?: bigint }
  | { ok: false; currentRevision: bigint | 'no_stream' };

export type Direction = 'forwards' | 'backwards';
export type StreamFrom = 'start' | 'end' | bigint;
export type AllFrom = 'start' | 'end' | bigint;

/** Retention settings a real server reads from the `$$<stream>` metadata stream. */
interface Retention {
  maxCount?: number;
  maxAgeSeconds?: number;
  truncateBefore?: bigint;
}

export class InMemoryEventLog {
  private readonly log: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly appendListeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  get length(): number {
    return this.log.length;
  }

  eventAt(index: number): StoredEvent | undefined {
    return this.log[index];
  }

  /** Index of the first event whose position is at or after `position`. */
  indexAtOrAfter(position: bigint): number {
    const index = this.log.findIndex((event) => event.position >= position);
    return index === -1 ? this.log.length : index;
  }

  /** Registers a callback run after every successful append; returns the unregister function. */
  onAppend(listener: () => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  append(stream: string, expected: ExpectedState, proposed: ProposedEvent[]): AppendOutcome {
    const existing = this.streams.get(stream) ?? [];
    const currentRevision = existing.length === 0 ? 'no_stream' : existing.at(-1)!.revision;
    const satisfied =
      expected === 'any' ||
      (expected === 'no_stream' && currentRevision === 'no_stream') ||
      (expected === 'stream_exists' && currentRevision !== 'no_stream') ||
      (typeof expected === 'bigint' && expected === currentRevision);
    if (!satisfied) return { ok: false, currentRevision };
    if (proposed.length === 0) return { ok: true, currentRevision };

    const createdMs = this.now();
    let revision = currentRevision === 'no_stream' ? -1n : currentRevision;
    for (const event of proposed) {
      revision += 1n;
      const stored: StoredEvent = {
        ...event,
        stream,
        revision,
        position: BigInt(this.log.length + 1) * POSITION_STRIDE,
        createdMs,
      };
      this.log.push(stored);
      existing.push(stored);
    }
    this.streams.set(stream, existing);
    for (const listener of [...this.appendListeners]) listener();
    return { ok: true, currentRevision: revision, position: this.log.at(-1)!.position };
  }

  /** Events of one stream as a real server returns them (retention applied); undefined when it does not exist. */
  readStream(stream: string, from: StreamFrom, direction: Direction, count: bigint): StoredEvent[] | undefined {
    const all = this.streams.get(stream);
    if (!all || all.length === 0) return undefined;
    const visible = this.applyRetention(all, this.retentionOf(stream));
    // 'start' is revision 0 and 'end' is past the last revision, in both directions.
    const fromRevision = from === 'start' ? 0n : from === 'end' ? lastRevisionPlusOne(all) : from;
    const selected =
      direction === 'forwards'
        ? visible.filter((event) => event.revision >= fromRevision)
        : visible.filter((event) => event.revision <= fromRevision).reverse();
    return selected.slice(0, Number(count));
  }

  /**
   * The global log, as a real server reads it: forwards from a position includes the event at that
   * position, backwards from a position starts with the event before it. Retention does not apply
   * (a real server only drops expired events from $all when it scavenges).
   */
  readAll(from: AllFrom, direction: Direction, count: bigint, accept: (event: StoredEvent) => boolean): StoredEvent[] {
    const selected: StoredEvent[] = [];
    if (direction === 'forwards') {
      const start = from === 'start' ? 0 : from === 'end' ? this.log.length : this.indexAtOrAfter(from);
      for (let i = start; i < this.log.length && selected.length < count; i++) {
        if (accept(this.log[i]!)) selected.push(this.log[i]!);
      }
    } else {
      const start = from === 'start' ? -1 : from === 'end' ? this.log.length - 1 : this.indexAtOrAfter(from) - 1;
      for (let i = start; i >= 0 && selected.length < count; i--) {
        if (accept(this.log[i]!)) selected.push(this.log[i]!);
      }
    }
    return selected;
  }

  /** The newest `$metadata` event of `$$<stream>` decides the stream's retention, as on a real server. */
  private retentionOf(stream: string): Retention {
    const metadataEvent = this.streams.get(`$$${stream}`)?.at(-1);
    if (!metadataEvent || metadataEvent.type !== '$metadata') return {};
    const raw = JSON.parse(Buffer.from(metadataEvent.data).toString('utf8')) as Record<string, unknown>;
    const asNumber = (value: unknown) => (typeof value === 'number' ? value : undefined);
    const truncateBefore = asNumber(raw.$tb);
    return {
      maxCount: asNumber(raw.$maxCount),
      maxAgeSeconds: asNumber(raw.$maxAge),
      truncateBefore: truncateBefore === undefined ? undefined : BigInt(truncateBefore),
    };
  }

  private applyRetention(events: StoredEvent[], retention: Retention): StoredEvent[] {
    const lastRevision = events.at(-1)!.revision;
    const oldestKeptMs =
      retention.maxAgeSeconds === undefined ? undefined : this.now() - retention.maxAgeSeconds * 1000;
    return events.filter(
      (event) =>
        (retention.maxCount === undefined || event.revision > lastRevision - BigInt(retention.maxCount)) &&
        (oldestKeptMs === undefined || event.createdMs >= oldestKeptMs) &&
        (retention.truncateBefore === undefined || event.revision >= retention.truncateBefore),
    );
  }
}

const lastRevisionPlusOne = (events: StoredEvent[]) => events.at(-1)!.revision + 1n;
