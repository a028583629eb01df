import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseLong, stringifyLong } from 'smdoctor';
import type { ClusterView } from './model.ts';
import type { LabLayout } from './layout.ts';
import { IndexStore } from './api/store.ts';
import { createApiServer } from './api/server.ts';
import { writeAtomic } from './atomic.ts';

export const stateFile = (layout: LabLayout) => join(layout.dir, 'cluster', 'state.json');

/** Index stores of every cluster from <dir>/cluster/state.json (written by buildLab, kept by the lab). */
export async function loadStores(layout: LabLayout): Promise<Map<string, IndexStore>> {
  const data = parseLong(await readFile(stateFile(layout), 'utf8')) as { clusters: Record<string, unknown> };
  return new Map(
    layout.clusters.map((c) => [
      c.name,
      data.clusters[c.name] ? IndexStore.fromJSON(data.clusters[c.name]) : new IndexStore(),
    ]),
  );
}

/** Writes the stores after every change (coalesced); returns flush() for shutdown. */
export function persistStores(layout: LabLayout, stores: Map<string, IndexStore>): () => Promise<void> {
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  const write = () => {
    timer = null;
    const text = `${stringifyLong({ clusters: Object.fromEntries([...stores].map(([k, s]) => [k, s.toJSON()])) })}\n`;
    // whole or untouched, and a symlinked state file stays a link
    writing = writing.then(() => writeAtomic(stateFile(layout), text)).catch(() => undefined);
  };
  for (const s of stores.values())
    s.onChange = () => {
      timer ??= setTimeout(write, 100);
    };
  return async () => {
    if (timer) {
      clearTimeout(timer);
      write();
    }
    await writing;
  };
}

/** createApiServer for every node of the lab, with the lab's TLS and basic-auth user. */
export function apiServerFactory(password: string, tls: { key: string; cert: string }) {
  return (view: ClusterView, nodeName: string) =>
    createApiServer({ view, nodeName, tls, auth: { username: 'admin', password } });
}
