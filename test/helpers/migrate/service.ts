/** Field-by-field agreement of the lab's migration service with `--source local`, on every stored query of a lab. */
import type { Test } from 'tap';
import type { ClusterTarget } from '../../../src/migrate/cluster.ts';
import { explainWith } from '../../../src/migrate/explain.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';
import { extractDashboards, extractJobs } from '../../../src/migrate/stored/extract.ts';
import { readAll } from './read-all.ts';
import { runCli } from '../cli.ts';
import { requestAs } from '../request-as.ts';

export const BASE = '/_sme/migration/autokeyword';

export async function storedQueries(target: ClusterTarget): Promise<string[]> {
  const jobs = extractJobs((await readAll(target.api, '.sm_jsc_jobs')) ?? [], 'query').queries;
  const dash = extractDashboards((await readAll(target.api, '.sm_dashboards')) ?? []).queries;
  return [...jobs, ...dash].map((q) => q.query);
}

export async function agreesWithLocal(t: Test, target: ClusterTarget, inventory: string): Promise<void> {
  const { api } = target;
  const queries = await storedQueries(target);
  t.ok(queries.length >= 4, `${queries.length} stored queries`);
  const sources = { mappings: clusterMappings(api), macros: clusterMacros(api, target.macrosIndex) };
  for (const query of queries) {
    const service = await api.request({ method: 'POST', path: `${BASE}/explain`, body: { query } });
    t.equal(service.statusCode, 200);
    const local = (await explainWith(query, sources)).explanation;
    t.strictSame(service.body, JSON.parse(JSON.stringify(local)), `explain agrees on ${JSON.stringify(query)}`);
  }
  for (const [kind, endpoint] of [
    ['jobs', 'jobscheduler'],
    ['dashboards', 'dashboards'],
  ]) {
    const service = await requestAs<unknown[]>(api, { method: 'GET', path: `${BASE}/${endpoint}` });
    t.equal(service.statusCode, 200);
    const local = await runCli(['migrate', kind, '--format', 'json', '--source', 'local', '-i', inventory]);
    t.equal(local.code, 1, local.err);
    const list = JSON.parse(local.out) as unknown[];
    t.ok(list.length > 0, `${kind}: something to migrate`);
    t.strictSame(service.body, list, `${endpoint} agrees with migrate ${kind} --source local, field by field`);
  }
}
