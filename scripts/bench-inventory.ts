/**
 * `npm run bench:inventory`: an Ansible repository of 5,000 hosts in 200 groups, with group_vars, host_vars
 * (files and directories), a vault file and templates; smdoctor's load time beside ansible-inventory's on the same files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadInventory } from '../src/inventory/load.ts';
import { encryptVault } from '../src/inventory/vault.ts';
import { vaultSecrets } from '../src/inventory/vaultpass.ts';

const HOSTS = Number(process.env.INV_BENCH_HOSTS ?? 5000);
const GROUPS = Number(process.env.INV_BENCH_GROUPS ?? 200);
const root = mkdtempSync(join(tmpdir(), 'smd-bench-inv-'));
const inv = join(root, 'inventories', 'prod');
const w = (p: string, text: string) => {
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
};

// 200 groups under 10 regions; every host in one group, every 10th also in `canary`
const lines: string[] = [];
for (let g = 0; g < GROUPS; g++) {
  lines.push(`[g${g}]`);
  for (let h = g; h < HOSTS; h += GROUPS)
    lines.push(
      `node${h}.example.com ansible_host=10.${h >> 16}.${(h >> 8) & 255}.${h & 255}${h % 10 === 0 ? ' rack=r1' : ''}`,
    );
}
for (let r = 0; r < 10; r++)
  lines.push(`[region${r}:children]`, ...Array.from({ length: GROUPS / 10 }, (_, i) => `g${r * (GROUPS / 10) + i}`));
lines.push('[canary]', ...Array.from({ length: HOSTS / 10 }, (_, i) => `node${i * 10}.example.com`));
w(join(inv, 'hosts'), `${lines.join('\n')}\n`);
w(
  join(inv, 'group_vars', 'all', 'main.yml'),
  'engine: opensearch\nsearch_home: "/opt/{{ engine }}"\napi_password: "{{ vault_api_password }}"\nansible_user: deploy\n',
);
w(join(root, 'vault-pass'), 'bench-vault-pass\n');
w(
  join(inv, 'group_vars', 'all', 'vault.yml'),
  encryptVault('vault_api_password: s3cret-bench\n', Buffer.from('bench-vault-pass')),
);
for (let g = 0; g < GROUPS; g++)
  w(join(inv, 'group_vars', `g${g}.yml`), `group_index: ${g}\nweb_home: "{{ search_home }}-dashboards-g${g}"\n`);
for (let r = 0; r < 10; r++)
  w(join(inv, 'group_vars', `region${r}`), `region: eu-${r}\napi_url: "https://api.region${r}.example.com:9200"\n`);
for (let h = 0; h < HOSTS; h++) {
  if (h % 100 === 0) {
    w(join(inv, 'host_vars', `node${h}.example.com`, 'main.yml'), `host_index: ${h}\n`);
    w(join(inv, 'host_vars', `node${h}.example.com`, 'paths.yml'), 'engine_user: svc\n');
  } else
    w(join(inv, 'host_vars', `node${h}.example.com.yml`), `host_index: ${h}\nsearch_home: "/data/{{ engine }}/${h}"\n`);
}

const secrets = await vaultSecrets({ vaultPasswordFile: [join(root, 'vault-pass')] }, { cwd: root, env: {} });
await loadInventory(inv, { secrets }); // warm-up (JIT), not timed
const runs: number[] = [];
const cpus: number[] = [];
let hosts = 0;
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  hosts = (await loadInventory(inv, { secrets })).hosts.size;
  const c = process.cpuUsage(c0);
  runs.push(performance.now() - t0);
  cpus.push((c.user + c.system) / 1000);
}
const ours = Math.min(...runs);
const oursCpu = Math.min(...cpus);

const cli = performance.now();
execFileSync(
  process.execPath,
  [
    join(import.meta.dirname, '..', 'bin', 'smdoctor.js'),
    'inventory',
    '--list',
    '-i',
    inv,
    '--vault-password-file',
    join(root, 'vault-pass'),
  ],
  { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 },
);
const ourCli = performance.now() - cli;

let theirs: number | undefined;
if (!process.env.INV_BENCH_SKIP_ANSIBLE)
  try {
    const t0 = performance.now();
    execFileSync('ansible-inventory', ['-i', inv, '--vault-password-file', join(root, 'vault-pass'), '--list'], {
      stdio: ['ignore', 'ignore', 'ignore'],
      maxBuffer: 1 << 30,
      env: { ...process.env, ANSIBLE_HOME: join(root, '.ansible') },
    });
    theirs = performance.now() - t0;
  } catch (e) {
    console.error(`ansible-inventory failed or is missing: ${(e as Error).message.split('\n')[0]}`);
  }
if (!process.env.INV_BENCH_KEEP) rmSync(root, { recursive: true, force: true });
else console.log(root);

console.log(
  `repository:            ${hosts} hosts in ${GROUPS} groups (+10 parents, canary), ${HOSTS} host_vars, ${GROUPS + 11} group_vars, 1 vault file, templates`,
);
console.log(
  `smdoctor load:         ${ours.toFixed(0)} ms wall, ${oursCpu.toFixed(0)} ms CPU (best of 3, in process: parse, vars files, vault, templates)`,
);
console.log(`smdoctor inventory --list: ${ourCli.toFixed(0)} ms (whole command, process start included)`);
if (theirs !== undefined) {
  console.log(`ansible-inventory --list:  ${theirs.toFixed(0)} ms (same files)`);
  console.log(`ratio:                 ansible-inventory / smdoctor command = ${(theirs / ourCli).toFixed(1)}x`);
}
