/**
 * What a real host shows beside the engine's own files and that the fleet pack reads: TLS certificate files, the
 * JVM options, the installed release, and an emulated /proc (memory, vm.max_map_count, the engine process's
 * limits and start time). Every lab node shares this machine's kernel, so /proc is a folder per node
 * (the inventory's `proc_root`), laid out as the kernel lays it out.
 */
import { copyFile, mkdir, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import type { ScenarioNode } from './model.ts';
import type { LabHost } from './layout.ts';

/** OpenSearch's published demo certificates (assets/opensearch-demo/README.md names the source). */
const DEMO_DIR = fileURLToPath(new URL('../assets/opensearch-demo/', import.meta.url));
const DEFAULT_CERT_DAYS = 365;
export const DEFAULT_MAX_MAP_COUNT = 262144;
/** The kernel's USER_HZ, what `getconf CLK_TCK` prints on Linux. */
export const CLK_TCK = 100;
const UNITS: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** `4g` → bytes. */
export function sizeBytes(size: string): number {
  const m = /^(\d+)([kmgt]?)b?$/i.exec(size.trim());
  if (!m) throw new Error(`not a size: ${size}`);
  return Number(m[1]) * (UNITS[m[2]!.toLowerCase()] ?? 1);
}

/** The folder a lab host keeps beside its installs (`nodes/<name>`). */
export const hostDir = (labDir: string, name: string): string => join(labDir, 'nodes', name);
export const procRoot = (labDir: string, name: string): string => join(hostDir(labDir, name), 'proc');
export const pidFile = (labDir: string, name: string, engine: string): string =>
  join(hostDir(labDir, name), 'run', `${engine}.pid`);
/** Lab-only: what the emulated kernel knows of the host and what changes after the engine's first start. */
const nodeStateFile = (labDir: string, name: string) => join(hostDir(labDir, name), 'lab-node.json');

export interface NodeState {
  /** The engine process's limits by pack name (`max_locked_memory`…): `unlimited` or a number. */
  limits: Record<string, string>;
  disk: { total: number; available: number };
  afterStart?: { keystore_changed?: boolean; plugin_engine_version?: string };
}

/** Settings the security plugin reads for its certificates, as `install_demo_configuration` writes them. */
export function securitySettings(demo: boolean): string[] {
  const [cert, key, ca] = demo
    ? ['esnode.pem', 'esnode-key.pem', 'root-ca.pem']
    : ['node.pem', 'node-key.pem', 'root-ca.pem'];
  return [
    `plugins.security.ssl.transport.pemcert_filepath: ${cert}`,
    `plugins.security.ssl.transport.pemkey_filepath: ${key}`,
    `plugins.security.ssl.transport.pemtrustedcas_filepath: ${ca}`,
    'plugins.security.ssl.http.enabled: true',
    `plugins.security.ssl.http.pemcert_filepath: ${cert}`,
    `plugins.security.ssl.http.pemkey_filepath: ${key}`,
    `plugins.security.ssl.http.pemtrustedcas_filepath: ${ca}`,
  ];
}

/**
 * The node's certificate files in config/: the demo ones, or a certificate signed by the lab CA with the days left
 * asked. One certificate per distinct expiry serves every node that asks it (a 1,000-host lab runs openssl twice).
 */
export async function writeCertificates(tlsDir: string, host: LabHost, node: ScenarioNode): Promise<void> {
  const config = host.engineConfigDir;
  if (node.demo_certificates) {
    for (const f of ['esnode.pem', 'root-ca.pem']) await copyFile(join(DEMO_DIR, f), join(config, f));
    return;
  }
  const days = String(node.certificate_days ?? DEFAULT_CERT_DAYS);
  const [cert, key] = [join(tlsDir, `node-${days}d.pem`), join(tlsDir, `node-${days}d-key.pem`)];
  if (!existsSync(cert) || !existsSync(key)) await signNodeCertificate(tlsDir, days);
  await copyFile(cert, join(config, 'node.pem'));
  await copyFile(key, join(config, 'node-key.pem'));
  await copyFile(join(tlsDir, 'ca.crt'), join(config, 'root-ca.pem'));
}

async function signNodeCertificate(tlsDir: string, days: string): Promise<void> {
  const run = (args: string[]) => execa('openssl', args, { cwd: tlsDir, stdin: 'ignore' });
  const ext = `node-${days}d.ext`;
  await writeFile(join(tlsDir, ext), 'extendedKeyUsage=serverAuth,clientAuth\n');
  await run([
    'req',
    ...['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', `node-${days}d-key.pem`, '-out', `node-${days}d.csr`, '-subj', '/O=smdoctor lab/CN=lab node'],
  ]);
  await run([
    'x509',
    '-req',
    ...['-in', `node-${days}d.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-days', days, '-sha256'],
    ...['-set_serial', `0x${randomBytes(8).toString('hex')}`, '-extfile', ext, '-out', `node-${days}d.pem`],
  ]);
  for (const f of [`node-${days}d.csr`, ext]) await rm(join(tlsDir, f), { force: true });
}

const DEFAULT_JVM_OPTIONS = [
  '## JVM configuration (smdoctor lab)',
  '-Xms1g',
  '-Xmx1g',
  '8-10:-XX:+UseConcMarkSweepGC',
  '11-:-XX:+UseG1GC',
  '-XX:+HeapDumpOnOutOfMemoryError',
  '',
].join('\n');

/** jvm.options and jvm.options.d/*.options as the scenario writes them, the release's jar, the JDK's `release` file. */
export async function writeInstall(host: LabHost, node: ScenarioNode, engine: string, version: string): Promise<void> {
  const home = host.searchHome;
  const config = host.engineConfigDir;
  await writeFile(join(config, 'jvm.options'), node.jvm_options ?? DEFAULT_JVM_OPTIONS);
  await rm(join(config, 'jvm.options.d'), { recursive: true, force: true });
  await mkdir(join(config, 'jvm.options.d'), { recursive: true });
  for (const [file, text] of Object.entries(node.jvm_options_d ?? {}))
    await writeFile(join(config, 'jvm.options.d', file), text);
  await rm(join(home, 'lib'), { recursive: true, force: true });
  await mkdir(join(home, 'lib'), { recursive: true });
  // the emulator's stand-in for the release's jar: its name is what the node reads at start
  await writeFile(join(home, 'lib', `${engine}-${version}.jar`), '');
  await mkdir(join(home, 'jdk'), { recursive: true });
  await writeFile(join(home, 'jdk', 'release'), 'IMPLEMENTOR="Eclipse Adoptium"\nJAVA_VERSION="21.0.4"\n');
}

/** The limits /proc/<pid>/limits shows, by the names packs use, with the defaults of a packaged install. */
const LIMITS: Array<[key: string, row: string, unit: string, dflt: string | number]> = [
  ['max_processes', 'Max processes', 'processes', 4096],
  ['max_open_files', 'Max open files', 'files', 65535],
  ['max_locked_memory', 'Max locked memory', 'bytes', 'unlimited'],
];

const TCP_HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';

/** /proc/net/tcp with a LISTEN (0A) row per port: the address's bytes in the x86 kernel's order, the port in hex. */
function tcpTable(ip: string, ports: readonly number[]): string {
  const addr = ip
    .split('.')
    .reverse()
    .map((o) => Number(o).toString(16).toUpperCase().padStart(2, '0'))
    .join('');
  const rows = ports.map(
    (port, i) =>
      `${String(i).padStart(4)}: ${addr}:${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A ` +
      `00000000:00000000 00:00000000 00000000     0        0 ${31000 + i} 1 0000000000000000 100 0 0 10 0`,
  );
  return `${[TCP_HEADER, ...rows].join('\n')}\n`;
}

const MOUNTS = [
  '/dev/vda1 / ext4 rw,relatime 0 0',
  'proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0',
  'sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0',
  'tmpfs /run tmpfs rw,nosuid,nodev,size=1638400k,mode=755 0 0',
  '',
].join('\n');

/** The host's side of /proc: memory, sysctls, sockets, mounts and the boot time; the process's side is written at start. */
export async function writeProc(labDir: string, host: LabHost, node: ScenarioNode, diskTotal: number): Promise<void> {
  const root = procRoot(labDir, host.name);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const kb = node.proc?.mem_total_kb ?? 8_388_608;
  await writeFile(
    join(root, 'meminfo'),
    [
      `MemTotal:       ${kb} kB`,
      `MemFree:        ${Math.floor(kb / 4)} kB`,
      `MemAvailable:   ${Math.floor(kb / 2)} kB`,
      '',
    ].join('\n'),
  );
  const sysctls = { 'vm.max_map_count': DEFAULT_MAX_MAP_COUNT, 'vm.swappiness': 1, ...node.proc?.sysctls };
  for (const [name, v] of Object.entries(sysctls)) {
    const file = join(root, 'sys', ...name.split('.'));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${v}\n`);
  }
  // the sockets a node listens on, as the kernel's table shows them: sshd, and the engine's (web application's) ports
  const ports = [host.sshPort, ...(host.engineNode ? [9200, 9300] : []), ...(host.webHost ? [5601] : [])];
  await mkdir(join(root, 'net'), { recursive: true });
  await writeFile(join(root, 'net', 'tcp'), tcpTable(host.ip, ports));
  await writeFile(join(root, 'net', 'tcp6'), `${TCP_HEADER}\n`);
  // the data path on / (/dev/vda1, ext4), as _nodes/stats/fs says
  await mkdir(join(root, 'self'), { recursive: true });
  await writeFile(join(root, 'self', 'mounts'), MOUNTS);
  // booted a day ago: process start times are counted in ticks from here
  await writeFile(join(root, 'stat'), `cpu  0 0 0 0 0 0 0 0 0 0\nbtime ${Math.floor(Date.now() / 1000) - 86400}\n`);
  const used = (node.disk_used_percent ?? 40) / 100;
  const state: NodeState = {
    limits: Object.fromEntries(LIMITS.map(([k, , , d]) => [k, String(node.proc?.limits?.[k] ?? d)])),
    disk: { total: diskTotal, available: Math.round(diskTotal * (1 - used)) },
    ...(node.after_start ? { afterStart: node.after_start } : {}),
  };
  await writeFile(nodeStateFile(labDir, host.name), `${JSON.stringify(state)}\n`);
}

export async function readNodeState(labDir: string, name: string): Promise<NodeState | null> {
  const text = await readFile(nodeStateFile(labDir, name), 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as NodeState);
}

const limitLine = (name: string, soft: string, hard: string, unit: string) =>
  `${name.padEnd(26)}${soft.padEnd(21)}${hard.padEnd(21)}${unit.padEnd(10)}`;

/**
 * The engine process at start: its pid file and /proc/<pid>/{limits,stat}, as the kernel shows them. The pid is the
 * lab daemon's own, so a stale pid file from a run before names another folder.
 */
export async function writeProcess(
  labDir: string,
  name: string,
  engine: string,
  state: NodeState,
  startedSecondsAgo = 0,
  standIn?: number,
): Promise<number> {
  const root = procRoot(labDir, name);
  const pid = standIn ?? 10000 + (randomBytes(2).readUInt16BE() % 50000);
  const btime = Number(/^btime (\d+)$/m.exec(await readFile(join(root, 'stat'), 'utf8').catch(() => ''))?.[1] ?? 0);
  const old = await readFile(pidFile(labDir, name, engine), 'utf8').catch(() => null);
  if (old !== null && /^\d+\s*$/.test(old)) await rm(join(root, old.trim()), { recursive: true, force: true });
  await mkdir(join(root, String(pid)), { recursive: true });
  await writeFile(
    join(root, String(pid), 'limits'),
    [
      limitLine('Limit', 'Soft Limit', 'Hard Limit', 'Units'),
      limitLine('Max cpu time', 'unlimited', 'unlimited', 'seconds'),
      ...LIMITS.map(([k, row, unit, d]) =>
        limitLine(row, state.limits[k] ?? String(d), state.limits[k] ?? String(d), unit),
      ),
      '',
    ].join('\n'),
  );
  const started = Math.max(0, Math.round((Date.now() / 1000 - startedSecondsAgo - btime) * CLK_TCK));
  // /proc/<pid>/stat: field 22 is the start time in clock ticks after boot
  const fields = [pid, '(java)', 'S', 1, pid, pid, 0, -1, 4194560, ...Array<number>(12).fill(0), started, 0, 0];
  await writeFile(join(root, String(pid), 'stat'), `${fields.join(' ')}\n`);
  await mkdir(join(hostDir(labDir, name), 'run'), { recursive: true });
  await writeFile(pidFile(labDir, name, engine), `${pid}\n`);
  return pid;
}

/** With changes made after the first start, that start was an hour ago (the changes came ten minutes ago). */
export const startedSecondsAgo = (state: NodeState): number => (state.afterStart ? 3600 : 0);

/**
 * Changes made on disk after the node's first start (the keystore edited, a package upgrade that replaced the
 * plugins): the running node does not see them, its next start does. Done once, then forgotten.
 */
export async function applyAfterStart(labDir: string, host: LabHost, engine: string, state: NodeState): Promise<void> {
  const after = state.afterStart;
  if (!after) return;
  // written before the start an hour ago, or edited ten minutes ago
  const when = new Date(Date.now() - (after.keystore_changed ? 600_000 : 7_200_000));
  await utimes(join(host.engineConfigDir, `${engine}.keystore`), when, when);
  if (after.plugin_engine_version) {
    const dir = join(host.searchHome, 'plugins');
    for (const p of await readdir(dir).catch(() => [])) {
      const f = join(dir, p, 'plugin-descriptor.properties');
      const text = await readFile(f, 'utf8').catch(() => null);
      if (text !== null)
        await writeFile(
          f,
          text.replace(new RegExp(`^${engine}\\.version=.*$`, 'm'), `${engine}.version=${after.plugin_engine_version}`),
        );
    }
  }
  const { afterStart: _done, ...rest } = state;
  await writeFile(nodeStateFile(labDir, host.name), `${JSON.stringify(rest)}\n`);
}
