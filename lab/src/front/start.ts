/** Starts a lab's front (large-fleet mode): per-host sshd configs and host keys, known_hosts, then the front process. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { saveLayout, type LabLayout } from '../layout.ts';
import { configText, generateKey, knownHostsLine, pidAlive, SSHD_PATH } from '../sshd.ts';
import { API_BEHIND_FRONT_PORT, frontConfigFile, frontDir, rttFile, type FrontConfig } from './config.ts';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
export const FRONT_MAIN = fileURLToPath(new URL(FROM_SOURCE ? './main.ts' : './main.js', import.meta.url));
const FRONT_ARGS = FROM_SOURCE
  ? ['--conditions=smdoctor-source', '--import', import.meta.resolve('tsx'), FRONT_MAIN]
  : [FRONT_MAIN];

/** Each host's sshd directory as the per-node lab has it (host key, authorized_keys, sshd_config), for `sshd -i`. */
async function writeHostSshd(layout: LabLayout, clientKey: string): Promise<FrontConfig['hosts']> {
  const eight = pLimit(8);
  return Promise.all(
    layout.hosts.map((h) =>
      eight(async () => {
        const dir = join(layout.dir, 'nodes', h.name, 'sshd');
        await mkdir(dir, { recursive: true });
        await generateKey(join(dir, 'ssh_host_ed25519_key'), `sshd@${h.ip}`);
        await writeFile(join(dir, 'authorized_keys'), `${clientKey}\n`, { mode: 0o600 });
        const opts = {
          dir,
          address: h.ip,
          port: h.sshPort,
          authorizedKeys: [clientKey],
          setEnv: { SMDOCTOR_LAB_NODE: h.name },
        };
        const sshdConfig = join(dir, 'sshd_config');
        await writeFile(sshdConfig, configText(dir, opts));
        return {
          name: h.name,
          ip: h.ip,
          sshPort: h.sshPort,
          sshdConfig,
          ...(h.engineNode ? { api: { port: 9200, upstreamPort: API_BEHIND_FRONT_PORT } } : {}),
        };
      }),
    ),
  );
}

/** Writes the front's config and known_hosts, records the front in lab.json (the daemon then listens behind it), starts it. */
export async function startFront(layout: LabLayout, rttMs: number, timeoutMs = 60_000): Promise<void> {
  const fdir = frontDir(layout.dir);
  await mkdir(fdir, { recursive: true });
  await mkdir('/run/sshd', { recursive: true }).catch(() => undefined);
  const client = await generateKey(layout.sshKeyFile, 'smdoctor-lab-client');
  const hosts = await writeHostSshd(layout, client.publicKey);
  const keys = await Promise.all(
    layout.hosts.map((h) => readFile(join(layout.dir, 'nodes', h.name, 'sshd', 'ssh_host_ed25519_key.pub'), 'utf8')),
  );
  await writeFile(
    layout.knownHostsFile,
    `${layout.hosts.map((h, i) => knownHostsLine(h.ip, h.sshPort, keys[i]!.trim())).join('\n')}\n`,
  );
  await writeFile(rttFile(layout.dir), `${rttMs}\n`);
  const cfg: FrontConfig = {
    dir: layout.dir,
    sshd: SSHD_PATH,
    hosts,
    rttFile: rttFile(layout.dir),
    linksFile: join(fdir, 'links.jsonl'),
    logFile: join(fdir, 'sshd.log'),
    pidFile: join(fdir, 'front.pid'),
    readyFile: join(fdir, 'ready'),
  };
  await writeFile(frontConfigFile(layout.dir), `${JSON.stringify(cfg)}\n`);
  layout.front = { pidFile: cfg.pidFile, marker: FRONT_MAIN, apiListenPort: API_BEHIND_FRONT_PORT };
  await saveLayout(layout);
  await rm(cfg.readyFile, { force: true });
  const log = await open(join(fdir, 'front.log'), 'a');
  const child = spawn(process.execPath, [...FRONT_ARGS, layout.dir], {
    detached: true,
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  child.unref();
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(cfg.readyFile)) {
    if (child.pid === undefined || !pidAlive(child.pid) || Date.now() > deadline) {
      const tail = (await readFile(join(fdir, 'front.log'), 'utf8').catch(() => '')).split('\n').slice(-8).join('\n');
      throw new Error(`the lab's front did not start; ${join(fdir, 'front.log')} ends:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
