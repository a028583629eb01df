/** The one way audit and fix take their dependencies: what a caller gives wins, the rest is loaded lazily. */

/** Every name given: the real modules are not even loaded (tests run on fakes alone); else they fill the gaps. */
export async function resolveDeps<D extends object>(
  given: Partial<D>,
  names: ReadonlyArray<keyof D>,
  load: () => Promise<D>,
): Promise<D> {
  if (names.every((k) => given[k] !== undefined)) return given as D;
  return { ...(await load()), ...given };
}

/** The names of ReachDeps, for resolveDeps. */
export const REACH_NAMES = ['hostConfig', 'clustersOf', 'connect', 'api'] as const;
