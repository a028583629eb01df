/** Fakes for audit tests: hosts whose files live in a temp dir (local-sh.ts runs commands over them), an API answering from rows. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostConfig } from '../../../src/inventory/types.ts';
import type { CatRow } from '../../../src/model/index.ts';
import { hostConfigOf } from '../host-config.ts';
import { byRoute, fakeApi as coreFakeApi, type FakeApi, type Routes } from '../fake-api.ts';

export const cfg = (name: string, over: Partial<HostConfig> = {}): HostConfig =>
  hostConfigOf(name, { address: `10.0.0.${name.length}`, apiUrl: 'https://10.0.0.1:9200', ...over });

/** One host's files, relative to its root: engine yml, dashboards yml, plugins by folder (descriptor text or null for none). */
export interface HostTree {
  engineYml?: string;
  dashboardsYml?: string;
  plugins?: Record<string, string | null>;
  /** keystore list answer: entries, or 'missing' for exit 65. */
  keystore?: string[] | 'missing';
}

export const descriptor = (name: string, version = '2.11.0'): string =>
  `description=${name}\nversion=${version}\nname=${name}\nclassname=org.x.Plugin\njava.version=17\nopensearch.version=2.11.0\n`;

/** Writes the tree under root and returns a config pointing there. */
export function plantHost(root: string, name: string, tree: HostTree, over: Partial<HostConfig> = {}): HostConfig {
  // the homes as an inventory writes them (search_home, web_home): they count before what the host says
  const c = cfg(name, {
    searchHome: join(root, name, 'search'),
    webHome: join(root, name, 'web'),
    searchHomeGiven: true,
    webHomeGiven: true,
    ...over,
  });
  mkdirSync(join(c.searchHome, 'config'), { recursive: true });
  mkdirSync(join(c.searchHome, 'plugins'), { recursive: true });
  if (tree.engineYml !== undefined) writeFileSync(join(c.searchHome, 'config', 'opensearch.yml'), tree.engineYml);
  if (tree.dashboardsYml !== undefined) {
    mkdirSync(join(c.webHome, 'config'), { recursive: true });
    writeFileSync(join(c.webHome, 'config', 'opensearch_dashboards.yml'), tree.dashboardsYml);
  }
  for (const [folder, text] of Object.entries(tree.plugins ?? {})) {
    mkdirSync(join(c.searchHome, 'plugins', folder), { recursive: true });
    if (text !== null) writeFileSync(join(c.searchHome, 'plugins', folder, 'plugin-descriptor.properties'), text);
  }
  return c;
}

/** Answers GETs by path; unknown paths 404 with an engine-shaped error body; every request fails with `fail` if given. */
export function fakeApi(url: string, routes: Routes, fail?: Error): FakeApi {
  const answer = byRoute(routes);
  return coreFakeApi(
    (req, n) => {
      if (fail) throw fail;
      return answer(req, n);
    },
    { url },
  );
}

export const nodeRow = (name: string, ip: string, roles: string, manager = '-'): CatRow => ({
  ip,
  name,
  'node.roles': roles,
  cluster_manager: manager,
});

/** Routes for a cluster: nodes, their attrs and plugins. */
export function clusterRoutes(o: { name?: string; nodes: CatRow[]; attrs?: CatRow[]; plugins?: CatRow[] }): Routes {
  return {
    '/_cat/nodes': { statusCode: 200, body: o.nodes },
    '/_cat/nodeattrs': { statusCode: 200, body: o.attrs ?? [] },
    '/_cat/plugins': { statusCode: 200, body: o.plugins ?? [] },
    '/_cluster/health': { statusCode: 200, body: { cluster_name: o.name ?? 'lab', status: 'green' } },
    '/_cat/shards/.sm_sme_limits_user': { statusCode: 200, body: [] },
  };
}
