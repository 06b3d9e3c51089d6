/** Types of compiled-build.mjs (plain JavaScript, as it runs before anything is compiled). */
export interface CompiledTree {
  /** The build's root: `src/main.js` and the rest of the tree mirror the sources. */
  dir: string;
  /** Whether this call wrote the build (false: the same content had been built before). */
  built: boolean;
}
export function compiledTree(root: string, cacheDir?: string): Promise<CompiledTree>;
