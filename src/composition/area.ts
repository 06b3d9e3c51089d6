/**
 * What each area of the platform hands the composition root: its routes, the projections that
 * build its read models, and the background processes it runs. `src/platform.ts` concatenates them.
 */
import type { ApiModule } from '../http/app.js';
import type { Projection } from '../projection/projection.js';

export interface BackgroundProcess {
  /** Called once the server listens. */
  start(): void;
  stop(): Promise<void>;
}

export interface PlatformArea {
  routes: ApiModule[];
  projections: Projection[];
  processes: BackgroundProcess[];
}
