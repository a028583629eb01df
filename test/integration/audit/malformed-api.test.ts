/** Wrong field types from the API fail that cluster's checks with a reason naming endpoint and field; other clusters are reported normally. */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { hostileServer, jsonRoutes } from '../../helpers/hostile.ts';
import type { Report } from '../../../src/model/index.ts';

const node = (name: string) => ({ ip: '127.0.0.9', name, 'node.roles': 'cluster_manager,data', cluster_manager: '*' });
const routes = (name: string, over: Record<string, unknown> = {}) => ({
  '/_cat/nodes': [node(name)],
  '/_cat/nodeattrs': [],
  '/_cat/plugins': [],
  '/_cat/shards/.sm_sme_limits_user': [],
  '/_cluster/health': { cluster_name: name, status: 'green', number_of_nodes: 1 },
  ...over,
});

/** Two clusters of one local host each (no SSH): `bad` and `good`. */
function inventory(bad: string, good: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'smd-shape-'));
  const host = (n: string, url: string) =>
    `    ${n}:\n      ansible_connection: local\n      search_home: ${dir}/${n}\n      web_home: ${dir}/${n}-web\n      api_url: ${url}\n`;
  const file = join(dir, 'inventory.yml');
  writeFileSync(file, `all:\n  hosts:\n${host('b1', bad)}${host('g1', good)}`);
  return file;
}

const cases: Array<[string, Record<string, unknown>, RegExp]> = [
  [
    'node.roles a number in _cat/nodes',
    { '/_cat/nodes': [{ ...node('bad'), 'node.roles': 5 }] },
    /GET \/_cat\/nodes answered an unexpected shape: field \[0\]\.node\.roles is number 5/,
  ],
  [
    'a boolean nodeattrs value',
    { '/_cat/nodeattrs': [{ node: 'bad', attr: 'node_with_sme', value: true }] },
    /GET \/_cat\/nodeattrs answered an unexpected shape: field \[0\]\.value is boolean true/,
  ],
  [
    'a null row in _cat/nodes',
    { '/_cat/nodes': [null] },
    /GET \/_cat\/nodes answered an unexpected shape: field \[0\] is null/,
  ],
  [
    'a string body for _cat/plugins',
    { '/_cat/plugins': 'oops' },
    /GET \/_cat\/plugins answered an unexpected shape: the body is string "oops"/,
  ],
  [
    'a number for _source of the base limit document',
    { '/.sm_sme_limits_user/_doc/base_limit': { found: true, _source: 7 } },
    /_doc\/base_limit answered an unexpected shape: field _source is number 7/,
  ],
  [
    'a string for the limits index settings',
    { '/.sm_sme_limits_user/_settings': { '.sm_sme_limits_user': 'x' } },
    /_settings answered an unexpected shape: field \.sm_sme_limits_user is string "x"/,
  ],
  [
    'a shard count as text in _cluster/health',
    { '/_cluster/health': { cluster_name: 'bad', status: 'green', unassigned_shards: '0' } },
    /GET \/_cluster\/health answered an unexpected shape: field unassigned_shards is string "0", expected number/,
  ],
  [
    'a cluster settings layer that is an array',
    { '/_cluster/settings': { persistent: [], transient: {} } },
    /GET \/_cluster\/settings answered an unexpected shape: field persistent is an array/,
  ],
  [
    'a number for _source of the fix lease',
    { '/.smdoctor-lease/_doc/fix': { found: true, _source: 1 } },
    /GET \/\.smdoctor-lease\/_doc\/fix answered an unexpected shape: field _source is number 1/,
  ],
];

for (const [name, over, reason] of cases) {
  t.test(`api shapes: ${name} errors that cluster only, with endpoint and field named`, async (t) => {
    const bad = await hostileServer(jsonRoutes(routes('bad', over)));
    const good = await hostileServer(jsonRoutes(routes('good')));
    t.teardown(() => Promise.all([bad.close(), good.close()]));
    // a deadline no answer here needs: the good cluster must be read whole, however loaded the machine
    const r = await runCli(['audit', '-i', inventory(bad.url, good.url), '--format', 'json', '--timeout', '60'], {
      cwd: '/tmp',
    });
    t.notMatch(r.err, /TypeError|    at /, 'no stack trace');
    t.equal(r.code, 3, r.err);
    const report = JSON.parse(r.out) as Report;
    const b = report.clusters.find((c) => c.api_url === bad.url)!;
    const g = report.clusters.find((c) => c.api_url === good.url)!;
    for (const id of ['base-limit-document', 'limits-index-replicas', 'master-plugins'] as const) {
      const k = b.checks.find((c) => c.id === id)!;
      t.equal(k.status, 'error', `bad: ${id} errors`);
      t.match(k.reason, reason, `bad: ${id} says why`);
    }
    t.equal(g.name, 'good');
    t.equal(
      g.checks.find((c) => c.id === 'base-limit-document')!.status,
      'fail',
      'good: checked normally (its document is missing)',
    );
    t.notMatch(JSON.stringify(g.checks), /unexpected shape/);
  });
}
