/** Test helper: what `ansible-inventory --list` makes of a file, mapped to smdoctor's {groups, vars} per host. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

export interface AnsibleView {
  hosts: Record<string, { groups: string[]; vars: Record<string, unknown> }>;
  /** Raw group table for order-sensitive checks. */
  raw: Record<string, { hosts?: string[]; children?: string[] }>;
}

const home = mkdtempSync(join(tmpdir(), 'smd-ansible-'));
process.on('exit', () => rmSync(home, { recursive: true, force: true }));

export const ansibleEnv = {
  ANSIBLE_HOME: home,
  ANSIBLE_LOCAL_TEMP: join(home, 'tmp'),
  ANSIBLE_INVENTORY_UNPARSED_FAILED: 'true',
  ANSIBLE_INVENTORY_ENABLED: 'yaml,ini',
  ANSIBLE_NOCOLOR: '1',
  ANSIBLE_DEPRECATION_WARNINGS: 'false',
};

export async function ansibleInventory(file: string, ...args: string[]): Promise<string> {
  const r = await execa('ansible-inventory', ['-i', file, ...args], { env: ansibleEnv, reject: false });
  if (r.exitCode !== 0) throw new Error(`ansible-inventory failed: ${r.stderr}`);
  return r.stdout;
}

export async function ansibleView(file: string): Promise<AnsibleView> {
  const raw = JSON.parse(await ansibleInventory(file, '--list')) as Record<string, any>;
  const hostvars = raw._meta.hostvars as Record<string, Record<string, unknown>>;
  const hosts: AnsibleView['hosts'] = {};
  for (const [h, groups] of Object.entries(hostGroups(raw))) hosts[h] = { groups, vars: hostvars[h] ?? {} };
  return { hosts, raw };
}

/** The groups of each host from ansible-inventory's group table (children followed upwards), without all. */
export function hostGroups(list: Record<string, any>): Record<string, string[]> {
  const parents = new Map<string, string[]>();
  const direct = new Map<string, string[]>();
  for (const [g, body] of Object.entries(list)) {
    if (g === '_meta') continue;
    for (const c of body.children ?? []) parents.set(c, [...(parents.get(c) ?? []), g]);
    for (const h of body.hosts ?? []) direct.set(h, [...(direct.get(h) ?? []), g]);
  }
  const out: Record<string, string[]> = {};
  for (const [h, gs] of direct) {
    const all = new Set<string>();
    const up = (g: string) => {
      if (all.has(g)) return;
      all.add(g);
      (parents.get(g) ?? []).forEach(up);
    };
    gs.forEach(up);
    all.delete('all');
    out[h] = [...all].sort();
  }
  return out;
}
