/** A lab of master-eligible data nodes for rolling-restart tests, with its API and allocation log at hand. */
import type { Test } from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import { openCluster } from '../../../src/migrate/cluster.ts';
import { allocationLogFile } from '../../../lab/src/timing.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';
import type { Report } from '../../../src/model/index.ts';
import { runCli } from '../cli.ts';
import type { RunDeps } from '../../../src/cli/context.ts';
import { parseReport } from '../schema.ts';
import { requestAs } from '../request-as.ts';
import { fixArgs } from '../fix-args.ts';

export const KEY = 'cluster.routing.allocation.enable';

/** Nodes are away 600 ms (or longer), past the 200 ms delayed_timeout: without the procedure, replicas relocate. */
export async function rollingLab(
  t: Pick<Test, 'teardown'>,
  restartDelayMs = 600,
): Promise<{ lab: Lab; api: ClusterApi }> {
  const lab = await startLab({ scenario: 'rolling', restartDelayMs, delayedTimeoutMs: 200, recoveryDelayMs: 300 });
  const { api } = await openCluster({ inventory: lab.inventoryPath, timeout: 60 }, process.cwd(), {}, () => undefined);
  t.teardown(async () => {
    await api.close();
    await lab.stop();
  });
  return { lab, api };
}

export async function allocation(api: ClusterApi): Promise<{ persistent: unknown; transient: unknown }> {
  const r = await requestAs<{ persistent: Record<string, unknown>; transient: Record<string, unknown> }>(api, {
    method: 'GET',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
  });
  return { persistent: r.body.persistent[KEY] ?? null, transient: r.body.transient[KEY] ?? null };
}

export async function allocationLog(lab: Lab): Promise<string> {
  return readFile(allocationLogFile(lab.dir), 'utf8').catch(() => '');
}

export async function health(api: ClusterApi): Promise<Record<string, unknown>> {
  return (await requestAs<Record<string, unknown>>(api, { method: 'GET', path: '/_cluster/health' })).body;
}

/** A copy of the lab's inventory with one host's restart_command replaced. */
export async function inventoryWith(lab: Lab, host: string, command: string): Promise<string> {
  const inv = parse(await readFile(lab.inventoryPath, 'utf8'));
  const groups = inv.all.children as Record<string, { hosts?: Record<string, Record<string, unknown>> }>;
  for (const g of Object.values(groups)) if (g.hosts?.[host]) g.hosts[host].restart_command = command;
  const file = join(lab.dir, `inventory-${host}.yml`);
  await writeFile(file, stringify(inv));
  return file;
}

export const fix = (inventory: string, dir: string, ...extra: string[]) => fixWith({}, inventory, dir, ...extra);

/** fix with some of the run's dependencies replaced (the restart step, say). */
export async function fixWith(deps: Partial<RunDeps>, inventory: string, dir: string, ...extra: string[]) {
  const r = await runCli(fixArgs(inventory, { backupDir: join(dir, 'backups') }, ...extra), { cwd: '/tmp', deps });
  return { ...r, report: parseReport<Report>(r.out) };
}

/** Hosts in the order their engine restart finished (✓ or ✗), from the step lines. */
export const restartOrder = (err: string): string[] =>
  [...err.matchAll(/^smdoctor: [✓✗] .* restart-service on (\S+) \(opensearch\)/gm)].map((m) => m[1]!);
