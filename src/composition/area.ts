/**
 * What each area of the platform hands the composition root: its routes and the background
 * processes it runs. `src/platform.ts` concatenates them. The projections that build the areas'
 * read models are one list (read-models.ts), started before any area is composed.
 */
import type { ApiModule } from '../http/app.js';
import type { BackgroundProcess } from '../background-process.js';

export type { BackgroundProcess } from '../background-process.js';

export interface PlatformArea {
  routes: ApiModule[];
  processes: BackgroundProcess[];
}
