/** Bounded parallelism: how --forks bounds the hosts worked on at once. */

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** Runs fn over items with at most `limit` in flight; results in input order; rejects on the first failure. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const settled = await runPool(items, limit, fn, true);
  return settled.map((s) => (s as { ok: true; value: R }).value);
}

/** Like mapLimit, but one item's failure does not stop the others. */
export function mapLimitSettled<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<Settled<R>[]> {
  return runPool(items, limit, fn, false);
}

async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  failFast: boolean,
): Promise<Settled<R>[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const results = new Array<Settled<R>>(items.length);
  let next = 0;
  let failed: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        results[i] = { ok: true, value: await fn(items[i]!, i) };
      } catch (error) {
        results[i] = { ok: false, error };
        if (failFast) failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed) throw (failed as { error: unknown }).error;
  return results;
}
