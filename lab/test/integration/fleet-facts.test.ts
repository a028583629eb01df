/**
 * What the fleet pack (packs/fleet.yml) reads, on the lab's real files over real sshd and on its API: the
 * fleet-drift scenario shows each failure, the healthy one none.
 */
import t from 'tap';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startLab, type Lab } from '../../src/index.ts';
import { ssh, curl, json } from '../helpers/lab.ts';

const DEMO_NODE_CERT = readFileSync(new URL('../../assets/opensearch-demo/esnode.pem', import.meta.url), 'utf8');
const DAY = 86_400_000;

const target = (lab: Lab, name: string) => ({
  ...lab.nodes.find((x) => x.name === name)!,
  keyFile: lab.keyFile,
  knownHostsFile: lab.knownHostsFile,
});

/** One SSH session per node, as smdoctor's batch: each part's output after a `@@` line. */
async function remote(lab: Lab, name: string, parts: Array<(home: string, proc: string, pid: string) => string>) {
  const n = lab.nodes.find((x) => x.name === name)!;
  const proc = `${lab.dir}/nodes/${name}/proc`;
  const script = [
    `pid=$(cat ${lab.dir}/nodes/${name}/run/opensearch.pid)`,
    ...parts.map((p) => `echo @@; ${p(n.searchHome, proc, '$pid')}`),
  ].join('\n');
  const r = await ssh(target(lab, name), script);
  return r.stdout.split(/^@@$/m).slice(1);
}

const setting = (yml: string, key: string) =>
  new RegExp(`^\\s*${key.replace(/\./g, '\\.')}:\\s*(.*)$`, 'm').exec(yml)?.[1];

interface Facts {
  certDays: number;
  demo: boolean;
  yml: string;
  pluginEngine: string[];
  jvm: string;
  memKb: number;
  maxMapCount: number;
  lockLimit: string;
  keystoreAfterStart: boolean;
}

async function facts(lab: Lab, name: string): Promise<Facts> {
  const [pem, yml, plugins, jvm, meminfo, mapCount, limits, times] = await remote(lab, name, [
    (h) => `cat ${h}/config/$(sed -n 's/^plugins.security.ssl.http.pemcert_filepath: //p' ${h}/config/opensearch.yml)`,
    (h) => `cat ${h}/config/opensearch.yml`,
    (h) => `cat ${h}/plugins/*/plugin-descriptor.properties 2>/dev/null`,
    (h) => `cat ${h}/config/jvm.options ${h}/config/jvm.options.d/*.options 2>/dev/null`,
    (_h, p) => `cat ${p}/meminfo`,
    (_h, p) => `cat ${p}/sys/vm/max_map_count`,
    (_h, p, pid) => `cat ${p}/${pid}/limits`,
    // the process start as the kernel gives it: boot time + field 22 of /proc/<pid>/stat in clock ticks
    (h, p, pid) =>
      `echo $(sed -n 's/^btime //p' ${p}/stat) $(cut -d' ' -f22 ${p}/${pid}/stat) $(stat -c %Y ${h}/config/opensearch.keystore)`,
  ]);
  const cert = new X509Certificate(pem!);
  const [btime, ticks, mtime] = times!.trim().split(' ').map(Number);
  return {
    certDays: Math.floor((Date.parse(cert.validTo) - Date.now()) / DAY),
    demo: cert.fingerprint256 === new X509Certificate(DEMO_NODE_CERT).fingerprint256,
    yml: yml!,
    pluginEngine: [...plugins!.matchAll(/^opensearch\.version=(.*)$/gm)].map((m) => m[1]!),
    jvm: jvm!,
    memKb: Number(/^MemTotal:\s+(\d+) kB$/m.exec(meminfo!)?.[1]),
    maxMapCount: Number(mapCount!.trim()),
    lockLimit: /^Max locked memory\s+(\S+)/m.exec(limits!)?.[1] ?? '',
    keystoreAfterStart: mtime! > btime! + ticks! / 100,
  };
}

const api = async <T>(lab: Lab, path: string) =>
  json<T>((await curl(lab.caFile, lab.password, `${lab.nodes[0]!.apiUrl}${path}`)).body);

t.test('healthy: nothing the fleet pack looks for', async (t) => {
  const lab = await startLab({ scenario: 'healthy' });
  t.teardown(() => lab.stop());
  const all = await Promise.all(
    ['m1', 'm2', 'm3', 'd1', 'd2', 'd3'].map(async (n) => [n, await facts(lab, n)] as const),
  );
  for (const [name, f] of all) {
    t.ok(f.certDays >= 364, `${name}: a year left on its certificate`);
    t.equal(f.demo, false, `${name}: not the demo certificate`);
    t.equal(setting(f.yml, 'plugins.security.allow_unsafe_democertificates'), undefined, `${name}: no demo switch`);
    t.ok(
      f.pluginEngine.every((v) => v === '2.11.1'),
      `${name}: plugins built for the running 2.11.1`,
    );
    t.match(f.jvm, /^-Xms1g$/m);
    t.match(f.jvm, /^-Xmx1g$/m);
    t.equal(f.memKb, 8 * 1024 * 1024, `${name}: 8 GiB of memory`);
    t.equal(f.maxMapCount, 262144);
    t.equal(f.lockLimit, 'unlimited');
    t.equal(f.keystoreAfterStart, false, `${name}: keystore older than the process`);
    for (const k of ['node.master', 'cluster.initial_cluster_manager_nodes'])
      t.equal(setting(f.yml, k), undefined, `${name}: no ${k}`);
    // d3 locks its memory, and may: the limit is unlimited (the engine reads "true" and true alike)
    t.equal(String(setting(f.yml, 'bootstrap.memory_lock')), name === 'd3' ? 'true' : 'undefined', name);
  }
  const managers = lab.nodes.filter((n) => n.roles.includes('cluster_manager')).map((n) => n.address);
  const d1 = all.find(([n]) => n === 'd1')![1];
  t.equal(setting(d1.yml, 'discovery.seed_hosts'), `[${managers.join(', ')}]`, 'seeds are the managers');
  const nodes = await api<Array<{ version: string }>>(lab, '/_cat/nodes?format=json&h=name,version');
  t.same(new Set(nodes.map((n) => n.version)), new Set(['2.11.1']), 'one engine version');
  const alloc = await api<Array<{ 'disk.percent': string }>>(lab, '/_cat/allocation?format=json');
  t.ok(
    alloc.every((a) => Number(a['disk.percent']) < 90),
    'every data node below the high watermark',
  );
  const blocks = await api<object>(lab, '/_settings/index.blocks.read_only_allow_delete');
  t.same(blocks, {}, 'no index blocked');
  const settings = await api<{ defaults: Record<string, string> }>(
    lab,
    '/_cluster/settings?include_defaults=true&flat_settings=true',
  );
  t.equal(settings.defaults['cluster.max_shards_per_node'], '1000');
});

t.test('fleet-drift: each failure on its node, and the next start meets it', async (t) => {
  const lab = await startLab({ scenario: 'fleet-drift', restartDelayMs: 20 });
  t.teardown(() => lab.stop());
  const f = Object.fromEntries(
    await Promise.all(['m1', 'm2', 'm3', 'd1', 'd2', 'd3'].map(async (n) => [n, await facts(lab, n)] as const)),
  );
  const cases: Array<[string, () => unknown, unknown]> = [
    ['certificate expiry: 3 days on m3', () => f.m3!.certDays, 2],
    ['certificate expiry: 20 days on d1', () => f.d1!.certDays, 19],
    ['the published demo node certificate on d2', () => f.d2!.demo, true],
    ['the demo switch on d2', () => setting(f.d2!.yml, 'plugins.security.allow_unsafe_democertificates'), 'true'],
    ['plugins replaced for 2.12.0 on d3', () => [...new Set(f.d3!.pluginEngine)], ['2.12.0']],
    ['heap from jvm.options.d on d1', () => /-Xmx4g/.test(f.d1!.jvm) && /-Xms1g/.test(f.d1!.jvm), true],
    ['4 GiB of memory on d1', () => f.d1!.memKb, 4 * 1024 * 1024],
    ['vm.max_map_count on d2', () => f.d2!.maxMapCount, 65530],
    ['memory_lock on d1', () => setting(f.d1!.yml, 'bootstrap.memory_lock'), 'true'],
    ['max locked memory of d1', () => f.d1!.lockLimit, '65536'],
    ['legacy roles on m2', () => setting(f.m2!.yml, 'master') ?? setting(f.m2!.yml, 'node.master'), 'true'],
    ['bootstrap left on m1', () => setting(f.m1!.yml, 'cluster.initial_cluster_manager_nodes'), '[m1, m2, m3]'],
    ['seeds of d3', () => setting(f.d3!.yml, 'discovery.seed_hosts'), '[m1, m2, 192.0.2.10]'],
    ['keystore edited after the start on d1', () => f.d1!.keystoreAfterStart, true],
  ];
  for (const [what, got, want] of cases) t.same(got(), want, what);
  // a certificate of a few days is still valid, so the day it is read decides 2 or 3
  t.ok(f.m3!.certDays <= 3);

  const nodes = await api<Array<{ name: string; version: string }>>(lab, '/_cat/nodes?format=json&h=name,version');
  t.equal(nodes.find((n) => n.name === 'm3')?.version, '2.11.0', 'm3 runs another release');
  const alloc = await api<Array<{ node: string; 'disk.percent': string }>>(lab, '/_cat/allocation?format=json');
  t.equal(alloc.find((a) => a.node === 'd2')?.['disk.percent'], '93', 'd2 above the high watermark');
  const fs = await api<{ nodes: Record<string, { name: string; fs: { total: Record<string, number> } }> }>(
    lab,
    '/_nodes/stats/fs',
  );
  const d2 = Object.values(fs.nodes).find((n) => n.name === 'd2')!.fs.total;
  t.equal(Math.round((1 - d2.available_in_bytes! / d2.total_in_bytes!) * 100), 93);
  const blocks = await api<Record<string, unknown>>(lab, '/_settings/index.blocks.read_only_allow_delete');
  t.same(Object.keys(blocks), ['logs-2024.01'], 'one index blocked at the flood stage');
  const health = await api<{ active_shards: number; number_of_data_nodes: number }>(lab, '/_cluster/health');
  const cs = await api<{ persistent: Record<string, string> }>(lab, '/_cluster/settings?flat_settings=true');
  const limit = Number(cs.persistent['cluster.max_shards_per_node']) * health.number_of_data_nodes;
  t.ok(health.active_shards > 0.85 * limit, `${health.active_shards} shards above 85% of ${limit}`);

  // what the checks warn of: the next start refuses the stale plugins, and a restart loads the keystore
  const restart = (name: string) => ssh(target(lab, name), `${lab.dir}/bin/labctl ${name} restart opensearch`);
  const d3 = await restart('d3');
  t.not(d3.exitCode, 0, 'd3 does not start again');
  const [log] = await remote(lab, 'd3', [(h) => `cat ${h}/logs/lab.log`]);
  t.match(log, /Plugin \[[^\]]+\] was built for OpenSearch version 2\.12\.0 but version 2\.11\.1 is running/);
  t.equal((await restart('d1')).exitCode, 0);
  t.equal((await facts(lab, 'd1')).keystoreAfterStart, false, 'after a restart the keystore is loaded');
});
