/**
 * The network of `lab up --bastion`: two Linux network namespaces made and removed by the lab.
 * host ⇄ dmz (the bastion's sshd) ⇄ fleet (the nodes' sshds and the API); the host has no way into fleet.
 */
import { readFile, writeFile, rm } from 'node:fs/promises';
import { randomBytes, randomInt } from 'node:crypto';
import { join } from 'node:path';
import { execa } from 'execa';
import { UsageError } from 'smdoctor';
import { stopPid } from './sshd.ts';

export interface LabNet {
  id: string;
  dmz: string;
  fleet: string;
  /** veth pairs: host end ⇄ dmz end, dmz end ⇄ fleet end. */
  hostVeth: string;
  dmzOuterVeth: string;
  dmzInnerVeth: string;
  fleetVeth: string;
  hostAddr: string;
  bastionAddr: string;
  dmzInnerAddr: string;
  /** The fleet's /24, also an `unreachable` route in the host so nothing aimed at it leaves by the default route. */
  fleetSubnet: string;
  nodeAddrs: string[];
}

export const netFile = (dir: string) => join(dir, 'netns.json');

const ip = (...args: string[]) => execa('ip', args);

/** Names unique per lab (a random id) and two private /24s unused by the host. */
export async function planNet(count: number): Promise<LabNet> {
  if (count < 1 || count > 240) throw new RangeError(`cannot address ${count} hosts in one /24`);
  const used = `${(await ip('-4', 'addr').catch(() => ({ stdout: '' }))).stdout}\n${(await ip('-4', 'route').catch(() => ({ stdout: '' }))).stdout}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    const a = randomInt(64, 250);
    const b = randomInt(0, 127) * 2;
    const outer = `10.${a}.${b}`;
    const inner = `10.${a}.${b + 1}`;
    if (used.includes(`${outer}.`) || used.includes(`${inner}.`)) continue;
    const id = randomBytes(3).toString('hex');
    return {
      id,
      dmz: `smd-${id}-dmz`,
      fleet: `smd-${id}-fleet`,
      hostVeth: `smh${id}`,
      dmzOuterVeth: `smd${id}`,
      dmzInnerVeth: `smx${id}`,
      fleetVeth: `smf${id}`,
      hostAddr: `${outer}.1`,
      bastionAddr: `${outer}.2`,
      dmzInnerAddr: `${inner}.1`,
      fleetSubnet: `${inner}.0/24`,
      nodeAddrs: Array.from({ length: count }, (_, i) => `${inner}.${i + 10}`),
    };
  }
  throw new Error('no free private /24 pair found after 50 attempts');
}

/** Creates namespaces, veths, addresses and the host's unreachable route. The plan is saved first, so lab down finds a half-made net. */
export async function createNet(dir: string, net: LabNet): Promise<void> {
  if (process.getuid?.() !== 0)
    throw new UsageError(
      'lab up --bastion needs network namespaces, which need root: run it as root, or use lab up without --bastion',
    );
  await writeFile(netFile(dir), `${JSON.stringify(net, null, 2)}\n`);
  try {
    await ip('netns', 'add', net.dmz);
  } catch (err) {
    await destroyNet(dir);
    throw new UsageError(
      `lab up --bastion needs network namespaces, and "ip netns add" failed: ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`,
    );
  }
  try {
    await ip('netns', 'add', net.fleet);
    await ip('link', 'add', net.hostVeth, 'type', 'veth', 'peer', 'name', net.dmzOuterVeth);
    await ip('link', 'set', net.dmzOuterVeth, 'netns', net.dmz);
    await ip('link', 'add', net.dmzInnerVeth, 'type', 'veth', 'peer', 'name', net.fleetVeth);
    await ip('link', 'set', net.dmzInnerVeth, 'netns', net.dmz);
    await ip('link', 'set', net.fleetVeth, 'netns', net.fleet);
    await ip('addr', 'add', `${net.hostAddr}/24`, 'dev', net.hostVeth);
    await ip('link', 'set', net.hostVeth, 'up');
    await ip('-n', net.dmz, 'addr', 'add', `${net.bastionAddr}/24`, 'dev', net.dmzOuterVeth);
    await ip('-n', net.dmz, 'addr', 'add', `${net.dmzInnerAddr}/24`, 'dev', net.dmzInnerVeth);
    for (const dev of ['lo', net.dmzOuterVeth, net.dmzInnerVeth]) await ip('-n', net.dmz, 'link', 'set', dev, 'up');
    for (const a of net.nodeAddrs) await ip('-n', net.fleet, 'addr', 'add', `${a}/24`, 'dev', net.fleetVeth);
    for (const dev of ['lo', net.fleetVeth]) await ip('-n', net.fleet, 'link', 'set', dev, 'up');
    await ip('route', 'add', 'unreachable', net.fleetSubnet);
  } catch (err) {
    await destroyNet(dir);
    throw err;
  }
}

export async function readNet(dir: string): Promise<LabNet | null> {
  const text = await readFile(netFile(dir), 'utf8').catch(() => null);
  return text ? (JSON.parse(text) as LabNet) : null;
}

/** Pids of every process in a namespace (none when it does not exist). */
export async function netnsPids(ns: string): Promise<number[]> {
  const r = await execa('ip', ['netns', 'pids', ns], { reject: false });
  return r.exitCode === 0 ? r.stdout.split(/\s+/).filter(Boolean).map(Number) : [];
}

/** Stops whatever still runs inside the lab's namespaces, then deletes them, the host veth and the route. Idempotent. */
export async function destroyNet(dir: string): Promise<boolean> {
  const n = await readNet(dir);
  if (!n) return false;
  for (const ns of [n.fleet, n.dmz]) await Promise.all((await netnsPids(ns)).map((pid) => stopPid(pid)));
  const quiet = (...args: string[]) => execa('ip', args, { reject: false });
  await quiet('netns', 'del', n.fleet);
  await quiet('netns', 'del', n.dmz);
  // a veth dies with its peer's namespace; this catches one whose peer never moved
  await quiet('link', 'del', n.hostVeth);
  await quiet('link', 'del', n.dmzInnerVeth);
  await quiet('route', 'del', 'unreachable', n.fleetSubnet);
  await rm(netFile(dir), { force: true });
  return true;
}
