import { mkdir, writeFile, chmod } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import type { Scenario } from './model.ts';
import { allocateLoopback } from './net.ts';
import { generateKey, startSshd, type SshdHandle } from './sshd.ts';
import {
  API_PORT,
  SSH_PORT,
  DEFAULT_RESTART_DELAY_MS,
  hostCount,
  planLayout,
  saveLayout,
  type LabLayout,
  type LabBastion,
} from './layout.ts';
import { writeTrees } from './nodetree.ts';
import { startBastion, sshConfigText } from './bastion.ts';
import { inventoryYaml } from './inventory.ts';
import { clustersOf } from './scenario-parse.ts';
import { generateLabTls } from './tls.ts';
import { IndexStore } from './api/store.ts';
import { delayedTimeoutFile, newCopyDelayFile, recoveryDelayFile } from './timing.ts';
import { DEFAULT_TIMING } from './api/alloc.ts';

export interface BuildOptions {
  restartDelayMs?: number;
  toolDelayMs?: number;
  /** Scaled-down delayed_timeout of a node that left, and how long a copy takes to recover. */
  delayedTimeoutMs?: number;
  recoveryDelayMs?: number;
  /** How long a new replica initializes (default 0: at once). */
  newCopyDelayMs?: number;
  /** Node addresses to use instead of fresh loopback ones (lab up --bastion: the fleet namespace's). */
  addresses?: string[];
  bastion?: LabBastion;
}

export interface BuiltLab {
  layout: LabLayout;
  password: string;
  tls: { key: string; cert: string };
}

/** Lays out a lab dir: addresses, trees, TLS, password, client key, initial index state. Starts nothing. */
export async function buildLab(scenario: Scenario, dir: string, opts: BuildOptions = {}): Promise<BuiltLab> {
  await mkdir(dir, { recursive: true });
  const ips = opts.addresses ?? (await allocateLoopback(hostCount(scenario), [SSH_PORT, API_PORT]));
  const layout = planLayout(scenario, dir, ips);
  if (opts.bastion) layout.bastion = opts.bastion;
  const tlsOut = await generateLabTls(join(layout.dir, 'tls'), ips);
  await writeTrees(layout, scenario);
  // Delays live in files so they can be tuned while the lab runs; an existing choice is kept unless given.
  await writeDelay(layout.restartDelayFile, opts.restartDelayMs, DEFAULT_RESTART_DELAY_MS);
  await writeDelay(layout.toolDelayFile, opts.toolDelayMs, 0);
  await writeDelay(delayedTimeoutFile(layout.dir), opts.delayedTimeoutMs, DEFAULT_TIMING.delayedTimeoutMs);
  await writeDelay(recoveryDelayFile(layout.dir), opts.recoveryDelayMs, DEFAULT_TIMING.recoveryDelayMs);
  await writeDelay(newCopyDelayFile(layout.dir), opts.newCopyDelayMs, DEFAULT_TIMING.newCopyDelayMs);
  layout.caFile = tlsOut.caFile;
  await writeFile(layout.tlsKeyFile, tlsOut.key, { mode: 0o600 });
  await writeFile(layout.tlsCertFile, tlsOut.cert);
  const password = randomBytes(18).toString('base64url');
  await writeFile(layout.passwordFile, `${password}\n`, { mode: 0o600 });
  await chmod(layout.passwordFile, 0o600);
  await mkdir(join(layout.dir, 'ssh'), { recursive: true });
  await generateKey(layout.sshKeyFile, 'smdoctor-lab-client');
  const state: Record<string, unknown> = {};
  for (const c of clustersOf(scenario)) {
    const store = IndexStore.fromScenario(c.indices);
    // settings an operator left behind with PUT _cluster/settings (check packs catch the wrong ones)
    store.clusterSettings.persistent = { ...c.cluster_settings };
    state[c.cluster_name ?? c.name] = store.toJSON();
  }
  await mkdir(join(layout.dir, 'cluster'), { recursive: true });
  await writeFile(join(layout.dir, 'cluster', 'state.json'), `${JSON.stringify({ clusters: state })}\n`);
  await saveLayout(layout);
  return { layout, password, tls: { key: tlsOut.key, cert: tlsOut.cert } };
}

async function writeDelay(file: string, given: number | undefined, dflt: number): Promise<void> {
  if (given !== undefined || !existsSync(file)) await writeFile(file, `${given ?? dflt}\n`);
}

/** One sshd per host; writes known_hosts once all answer. Stops what it started if one fails. */
export async function startSshds(layout: LabLayout, detached: boolean, logLevel?: string): Promise<SshdHandle[]> {
  const client = await generateKey(layout.sshKeyFile, 'smdoctor-lab-client');
  const results = await Promise.allSettled(
    layout.hosts
      .map((h) =>
        startSshd({
          dir: join(layout.dir, 'nodes', h.name, 'sshd'),
          address: h.ip,
          port: h.sshPort,
          authorizedKeys: [client.publicKey],
          setEnv: { SMDOCTOR_LAB_NODE: h.name },
          detached,
          netns: layout.bastion?.fleetNetns,
          ...(logLevel ? { logLevel } : {}),
        }),
      )
      .concat(layout.bastion ? [startBastion(layout.bastion, client.publicKey, detached)] : []),
  );
  const ok = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.all(ok.map((s) => s.stop()));
    throw failed.reason;
  }
  await writeFile(layout.knownHostsFile, `${ok.map((s) => s.knownHostsLine).join('\n')}\n`);
  return ok;
}

export async function writeInventory(layout: LabLayout): Promise<void> {
  if (layout.bastion) await writeFile(layout.bastion.sshConfigFile, sshConfigText(layout, userInfo().username));
  await writeFile(layout.inventoryPath, inventoryYaml(layout));
}
