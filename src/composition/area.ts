/**
 * What each area of the platform hands the composition root: its routes, the projections that
 * build its read models, and the background processes it runs. `src/platform.ts` concatenates them.
 */
import type { ApiModule } from '../http/app.js';
import type { BackgroundProcess } from '../background-process.js';
import type { Projection } from '../projection-runner/projection.js';

export type { BackgroundProcess } from '../background-process.js';

export interface PlatformArea {
  routes: ApiModule[];
  projections: Projection[];
  processes: BackgroundProcess[];
}
