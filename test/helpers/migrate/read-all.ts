/** Every document of a stored-query index at once, through the product's paging: for tests on small indices. */
import type { ClusterApi } from '../../../src/cluster/types.ts';
import { openPages } from '../../../src/migrate/stored/pages.ts';
import type { ReadOptions, StoredDoc } from '../../../src/migrate/stored/read.ts';

/** `null` when the index does not exist. */
export async function readAll(api: ClusterApi, index: string, o: ReadOptions = {}): Promise<StoredDoc[] | null> {
  const p = await openPages(api, index, o);
  if (p.missing) return null;
  const out: StoredDoc[] = [];
  for await (const page of p.pages) for (const doc of page) out.push(doc);
  return out;
}
