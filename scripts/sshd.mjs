#!/usr/bin/env -S npx zx
/**
 * Real OpenSSH servers on loopback addresses, for trying the SSH transport by hand.
 *
 *   npx zx scripts/sshd.mjs up N [DIR]   start N detached sshd (127.A.B.1..N, port $SSHD_PORT or 2222) under
 *                                        DIR (default .sshd), write DIR/inventory.yml and print it
 *   npx zx scripts/sshd.mjs down [DIR]   stop them, by the pid files under DIR
 *
 * The inventory is ready for `smdoctor -i DIR/inventory.yml` and `ansible-inventory -i DIR/inventory.yml --list`.
 */
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { tsImport } from 'tsx/esm/api';
import YAML from 'yaml';

const sshd = await tsImport('../lab/src/sshd.ts', import.meta.url);
const net = await tsImport('../lab/src/net.ts', import.meta.url);

const [cmd, ...rest] = argv._;

async function up(n, dir) {
  if (!Number.isInteger(n) || n < 1 || n > 250) throw new Error(`up needs a count from 1 to 250, got ${n}`);
  if (existsSync(join(dir, 'inventory.yml'))) throw new Error(`${dir} already holds servers: run "down ${dir}" first`);
  const port = Number(process.env.SSHD_PORT ?? 2222);
  await mkdir(dir, { recursive: true });
  const addrs = await net.allocateLoopback(n, [port]);
  const clientKey = await sshd.generateKey(join(dir, 'client_key'), 'smdoctor-sshd-script');
  const servers = [];
  try {
    for (const [i, address] of addrs.entries()) {
      servers.push(
        await sshd.startSshd({
          dir: join(dir, `sshd-${i + 1}`),
          address,
          port,
          authorizedKeys: [clientKey.publicKey],
          detached: true,
        }),
      );
    }
  } catch (err) {
    await Promise.all(servers.map((s) => sshd.stopPid(s.pid)));
    throw err;
  }
  const knownHosts = join(dir, 'known_hosts');
  await writeFile(knownHosts, servers.map((s) => `${s.knownHostsLine}\n`).join(''), { mode: 0o600 });
  const inventory = {
    all: {
      hosts: Object.fromEntries(
        servers.map((s, i) => [`node${i + 1}`, { ansible_host: s.address, ansible_port: s.port }]),
      ),
      vars: {
        ansible_user: userInfo().username,
        ansible_ssh_private_key_file: clientKey.privatePath,
        ssh_known_hosts_file: knownHosts,
        ssh_host_key_checking: 'strict',
      },
    },
  };
  const text = YAML.stringify(inventory);
  await writeFile(join(dir, 'inventory.yml'), text);
  process.stdout.write(`# ${join(dir, 'inventory.yml')}\n${text}`);
}

async function down(dir) {
  const entries = existsSync(dir) ? await readdir(dir) : [];
  let stopped = 0;
  for (const e of entries.filter((name) => name.startsWith('sshd-'))) {
    const pidFile = join(dir, e, 'sshd.pid');
    if (!existsSync(pidFile)) continue;
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    if (Number.isInteger(pid) && pid > 1) {
      await sshd.stopPid(pid);
      stopped++;
    }
  }
  await $`rm -f ${join(dir, 'inventory.yml')}`.quiet();
  process.stdout.write(`stopped ${stopped} sshd under ${dir}\n`);
}

try {
  if (cmd === 'up') await up(Number(rest[0]), resolve(String(rest[1] ?? '.sshd')));
  else if (cmd === 'down') await down(resolve(String(rest[0] ?? '.sshd')));
  else throw new Error('usage: npx zx scripts/sshd.mjs up N [DIR] | down [DIR]');
} catch (err) {
  process.stderr.write(`sshd.mjs: ${err.message}\n`);
  process.exit(2);
}
