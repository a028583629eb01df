/** Each host's variables in Ansible's precedence (VariableManager.get_vars), templates and vaults left for when they are read. */
import { isSecretKey, rememberSecret } from '../text/index.ts';
import type { InventoryBuilder } from './builder.ts';
import { combineValue } from './combine.ts';
import { lazyVars } from './lazy.ts';
import { needsWork, templateResolver } from './template.ts';
import type { Inventory, Vars } from './types.ts';
import type { VaultKeys } from './vault.ts';
import type { VarsDirs } from './varsdirs.ts';

/** Where each inventory variable was written: `g:GROUP` or `h:HOST` → name → file. */
export type Origins = Map<string, Map<string, string>>;

export function noteOrigin(o: Origins, entity: string, key: string, file: string): void {
  let m = o.get(entity);
  if (!m) o.set(entity, (m = new Map()));
  m.set(key, file);
}

/** Ansible's default VARIABLE_PRECEDENCE: group_vars files, even those of `all`, beat the inventory file's group vars. */
export const DEFAULT_PRECEDENCE = [
  'all_inventory',
  'groups_inventory',
  'all_plugins_inventory',
  'all_plugins_play',
  'groups_plugins_inventory',
  'groups_plugins_play',
];

/** Longest path from `all` over parent edges, as Ansible's Group.depth. */
function depths(b: InventoryBuilder): Map<string, number> {
  const d = new Map<string, number>();
  const of = (n: string, stack: Set<string>): number => {
    const known = d.get(n);
    if (known !== undefined) return known;
    if (n === 'all' || stack.has(n)) return 0;
    stack.add(n);
    let v = 0;
    for (const p of b.groups.get(n)?.parents ?? []) v = Math.max(v, of(p, stack) + 1);
    stack.delete(n);
    d.set(n, v);
    return v;
  };
  for (const n of b.groups.keys()) of(n, new Set());
  return d;
}

export interface ResolveOptions {
  builder: InventoryBuilder;
  origins: Origins;
  basedirs: string[];
  /** The playbook directory (none, or one): its group_vars/ and host_vars/ come after the inventory's. */
  playdirs?: string[];
  dirs: VarsDirs;
  env: NodeJS.ProcessEnv;
  vault: VaultKeys;
  /** hash_behaviour=merge. */
  hashMerge?: boolean;
  /** The precedence entries (Ansible's `precedence` setting); unknown ones are skipped, as Ansible does. */
  precedence?: string[];
}

/** Replaces every host's vars with the merged set; templates and vault values resolve when a variable is read. */
export function resolveHostVars(inv: Inventory, o: ResolveOptions): void {
  const depth = depths(o.builder);
  const prio = (g: string) => o.builder.priority.get(g) ?? 1;
  const order = (a: string, b: string) =>
    depth.get(a)! - depth.get(b)! || prio(a) - prio(b) || (a < b ? -1 : a > b ? 1 : 0);
  const precedence = o.precedence ?? DEFAULT_PRECEDENCE;
  const fromInv = (entity: string) => (k: string) => o.origins.get(entity)?.get(k);
  for (const h of inv.hosts.values()) {
    const vars: Vars = {};
    const origin: Record<string, string | undefined> = {};
    const put = (src: Vars | undefined, file: (k: string) => string | undefined) => {
      if (!src) return;
      for (const k of Object.keys(src)) {
        vars[k] = combineValue(vars[k], src[k], o.hashMerge);
        origin[k] = file(k);
      }
    };
    // sources adjacent to the inventory, source by source, entity by entity, as the host_group_vars plugin runs
    const plugins = (kind: 'group_vars' | 'host_vars', names: string[], dirs = o.basedirs) => {
      for (const b of dirs)
        for (const n of names) for (const f of o.dirs.files(b, kind, n)) put(o.dirs.load(f), () => f);
    };
    const chain = h.groups.slice().sort(order);
    const steps: Record<string, () => void> = {
      all_inventory: () => put(inv.groups.get('all')?.vars, fromInv('g:all')),
      groups_inventory: () => chain.forEach((g) => put(inv.groups.get(g)?.vars, fromInv(`g:${g}`))),
      all_plugins_inventory: () => plugins('group_vars', ['all']),
      groups_plugins_inventory: () => plugins('group_vars', chain),
      // beside the playbook: the playbook directory, as ansible-inventory's --playbook-dir
      all_plugins_play: () => plugins('group_vars', ['all'], o.playdirs ?? []),
      groups_plugins_play: () => plugins('group_vars', chain, o.playdirs ?? []),
    };
    for (const p of precedence) steps[p]?.();
    put(o.builder.hostVars.get(h.name), fromInv(`h:${h.name}`));
    plugins('host_vars', [h.name]);
    plugins('host_vars', [h.name], o.playdirs ?? []);
    h.vars = lazyHost(h.name, h.groups, vars, origin, o);
  }
}

function lazyHost(
  host: string,
  groups: string[],
  raw: Vars,
  origin: Record<string, string | undefined>,
  o: ResolveOptions,
): Vars {
  if (!Object.values(raw).some(needsWork)) return raw;
  let resolve: ((k: string) => unknown) | undefined;
  return lazyVars(raw, (k) => {
    resolve ??= templateResolver({
      host,
      vars: raw,
      origin,
      env: o.env,
      vault: o.vault,
      magic: magicVars(host, groups),
    });
    const v = resolve(k);
    if (isSecretKey(k) && (typeof v === 'string' || typeof v === 'number')) rememberSecret(String(v));
    return v;
  });
}

function magicVars(host: string, groups: string[]): Vars {
  return {
    inventory_hostname: host,
    inventory_hostname_short: host.split('.')[0],
    group_names: groups.filter((g) => g !== 'ungrouped'),
  };
}
