/** Every pack source and matcher on the lab's real files and API, over real sshd: the pack-drift scenario's drift found. */
import t from 'tap';
import { join } from 'node:path';
import { driftLab } from '../../helpers/packs/lab.ts';
import type { CheckResult, Report } from '../../../src/model/index.ts';

t.setTimeout(600_000);
const drift = driftLab();
const audit = () => drift.audit();

const byId = (r: Report) => new Map<string, CheckResult>(r.clusters[0]!.checks.map((c) => [c.id, c]));
const hosts = (c: CheckResult | undefined) =>
  [...new Set(c?.findings.filter((f) => !f.kind).map((f) => f.host))].sort();

t.test('the drift, node by node; the vendor checks still pass', async (t) => {
  const r = await audit();
  const c = byId(r);
  for (const id of [
    'base-limit-document',
    'master-node-with-sme',
    'dashboards-hosts',
    'master-plugins',
    'limits-index-replicas',
  ])
    t.equal(c.get(id)?.status, 'pass', id);
  const want: Record<string, [string, string[]]> = {
    'drift/heap-same': ['fail', ['d3']],
    'drift/same-plugins': ['fail', ['d2']],
    'drift/no-icu': ['fail', ['d2']],
    'drift/s3-key': ['fail', ['d3']],
    'drift/memory-lock': ['fail', ['d3']],
    'drift/destructive-by-name': ['fail', []],
    'drift/map-count': ['pass', []],
    'drift/memlock-limit': ['pass', []],
    'drift/open-files': ['pass', []],
    'drift/memory': ['pass', []],
    'drift/cluster-name': ['pass', []],
    'drift/jdk-options': ['pass', []],
    'drift/g1': ['pass', []],
    'drift/web-hosts': ['pass', []],
  };
  for (const [id, [status, on]] of Object.entries(want)) {
    const k = c.get(id);
    t.equal(k?.status, status, `${id}: ${k?.reason}`);
    if (on.length) t.same(hosts(k), on, `${id} names ${on.join(', ')}`);
  }
  t.match(c.get('drift/heap-same')!.findings[0]!.message, /2147483648 here, 1073741824 on d1, d2/);
  // the lab's plugin stand-ins are built for the release each node runs (a mismatch stops a node's start, as the
  // engine's does); test/integration/packs/fleet-lab.test.ts shows the check failing on fleet-drift's d3
  t.equal(c.get('drift/plugin-builds')?.status, 'pass', 'the lab stand-ins are built for the running release');
  t.match(c.get('drift/destructive-by-name')!.actions, [
    {
      type: 'put-settings',
      api_path: '/_cluster/settings',
      body: { persistent: { 'action.destructive_requires_name': true } },
    },
  ]);
  t.match(c.get('drift/memory-lock')!.actions, [
    {
      type: 'set-yaml',
      host: 'd3',
      key: 'bootstrap.memory_lock',
      value: true,
      diff: /-\s+memory_lock: false\n\+\s+memory_lock: true/,
    },
  ]);
  t.notMatch(JSON.stringify(r), /lab-secret-/, 'no keystore value anywhere');
});

t.test(
  'a pick that finds nothing is an error naming it; per-node API reads name their node; no node in scope skips',
  async (t) => {
    const r = await drift.audit([join(import.meta.dirname, '..', '..', 'fixtures', 'packs', 'picks.yml')]);
    const c = byId(r);
    const want: Record<string, [string, RegExp]> = {
      'picks/mlockall': ['error', /pick nodes\.\*\.process\.mlockall found nothing: no 'process' after 'nodes\.\*'/],
      'picks/heap-max': ['error', /pick nodes\.\*\.jvm\.mem\.heap_max_in_bytes found nothing: no 'jvm'/],
      'picks/replicas-typo': [
        'error',
        /pick \*\.settings\.index\.number_of_replicaz found nothing: no 'number_of_replicaz'/,
      ],
      'picks/disk-per-node': ['pass', /holds on \d+ node\(s\) in scope/],
      'picks/disk-per-node-huge': ['fail', /in scope/],
      'picks/ml-only': ['skip', /no node in scope/],
    };
    for (const [id, [status, reason]] of Object.entries(want)) {
      t.equal(c.get(id)?.status, status, `${id}: ${c.get(id)?.reason}`);
      t.match(c.get(id)?.reason, reason, `${id} says why`);
    }
    const huge = c.get('picks/disk-per-node-huge')!;
    const named = huge.findings.map((f) => f.message);
    t.ok(named.length >= 2, 'a finding per node');
    for (const f of huge.findings)
      t.match(
        f.message,
        new RegExp(
          `^\\S*${f.host}\\S*.*api _nodes/stats/fs pick fs\\.total\\.total_in_bytes is \\d+ \\(.*iB\\), below 1125899906842624 \\(1\\.0 PiB\\)`,
        ),
        'each names its node and shows sizes readably',
      );
  },
);

t.test('host sources on the lab: sockets and mounts as each node lists them, over real sshd', async (t) => {
  const r = await drift.audit([join(import.meta.dirname, '..', '..', 'fixtures', 'packs', 'host-lab.yml')]);
  const c = byId(r);
  const data = r.clusters[0]!.nodes.filter((n) => n.roles.includes('data')).map((n) => n.host!);
  const want: Record<string, string> = {
    'hostlab/transport-listening': 'pass',
    'hostlab/nothing-on-9999': 'pass',
    'hostlab/transport-on-loopback-only': 'fail',
    'hostlab/data-noatime': 'fail',
    'hostlab/data-ext4': 'pass',
  };
  for (const [id, status] of Object.entries(want)) t.equal(c.get(id)?.status, status, `${id}: ${c.get(id)?.reason}`);
  t.same(hosts(c.get('hostlab/data-noatime')).sort(), [...data].sort(), 'every data node named: relatime, not noatime');
  t.match(c.get('hostlab/data-noatime')!.findings[0]!.message, /relatime/, 'the options read are shown');
});
