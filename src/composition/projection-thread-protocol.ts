/** The messages between the main thread and the projections on the writer thread (projection-thread.ts, projection-host.ts). */
import type { RebuildProgress } from '../projection-runner/rebuild.js';
import type { ProjectionStatus } from '../projection-runner/runner.js';
import type { DocChanges } from '../readstore/doc-changes.js';

/** What the projections are started with. */
export interface ProjectionThreadSetup {
  eventsFile: string;
  readModelsFile: string;
  /** SECRETS_KEY and SECRETS_KEY_PREVIOUS (as loadSecretBox takes them), and the key file otherwise. */
  secrets: { key?: Uint8Array; previousKeys: Uint8Array[] };
  secretsKeyFile: string;
  /** The projections to run, by name, in order. */
  projections: string[];
  /** Those whose commits move the IAM change stamps of their tenants. */
  iamProjections: string[];
  logLevel: string;
}

export type ToProjectionThread = { kind: 'rebuild'; id: number; name: string } | { kind: 'stop' };

export type FromProjectionThread =
  | { kind: 'started' }
  | { kind: 'failed'; error: string }
  /**
   * After each applied batch: the tenants whose IAM read models changed (null: all tenants), the
   * alert rules that changed (the evaluator's feed), then the position up to which
   * read-your-writes waiters may go, and every projection's status.
   */
  | {
      kind: 'progress';
      iamChanges: (string | null)[];
      ruleChanges: DocChanges;
      reached?: bigint;
      status: ProjectionStatus[];
    }
  | { kind: 'rebuild-progress'; id: number; progress: RebuildProgress }
  | { kind: 'rebuilt'; id: number; position: bigint }
  | { kind: 'rebuild-failed'; id: number; error: string }
  | { kind: 'stopped' };
