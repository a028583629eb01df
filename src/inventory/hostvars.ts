/** Each host's variables in Ansible's precedence: inventory, group_vars/ and host_vars/, then templates resolved. */
import type { InventoryBuilder } from './builder.ts';
import { hasTemplate, resolveTemplates } from './template.ts';
import type { Inventory, Vars } from './types.ts';
import type { VarsDirs } from './varsdirs.ts';

/** Where each inventory variable was written: `g:GROUP` or `h:HOST` → name → file. */
export type Origins = Map<string, Map<string, string>>;

export function noteOrigin(o: Origins, entity: string, key: string, file: string): void {
  let m = o.get(entity);
  if (!m) o.set(entity, (m = new Map()));
  m.set(key, file);
}

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
  dirs: VarsDirs;
  env: NodeJS.ProcessEnv;
}

/** Replaces every host's vars with the fully merged, template-resolved set. */
export function resolveHostVars(inv: Inventory, o: ResolveOptions): void {
  const depth = depths(o.builder);
  const prio = (g: string) => o.builder.priority.get(g) ?? 1;
  const order = (a: string, b: string) =>
    depth.get(a)! - depth.get(b)! || prio(a) - prio(b) || (a < b ? -1 : a > b ? 1 : 0);
  const groupFiles = new Map<string, Array<{ file: string; vars: Vars }>>();
  const filesOf = (g: string) => {
    let f = groupFiles.get(g);
    if (!f) groupFiles.set(g, (f = o.dirs.lookup(o.basedirs, 'group_vars', g)));
    return f;
  };
  for (const h of inv.hosts.values()) {
    const vars: Vars = {};
    const origin: Record<string, string | undefined> = {};
    const put = (src: Vars | undefined, file: (k: string) => string | undefined) => {
      if (!src) return;
      for (const k of Object.keys(src)) {
        vars[k] = src[k];
        origin[k] = file(k);
      }
    };
    const fromInv = (entity: string) => (k: string) => o.origins.get(entity)?.get(k);
    const chain = h.groups.slice().sort(order);
    put(inv.groups.get('all')?.vars, fromInv('g:all'));
    for (const f of filesOf('all')) put(f.vars, () => f.file);
    for (const g of chain) put(inv.groups.get(g)?.vars, fromInv(`g:${g}`));
    // source by source, group by group, as Ansible's vars plugins run
    for (const b of o.basedirs)
      for (const g of chain) for (const f of o.dirs.files(b, 'group_vars', g)) put(o.dirs.load(f), () => f);
    put(o.builder.hostVars.get(h.name), fromInv(`h:${h.name}`));
    for (const f of o.dirs.lookup(o.basedirs, 'host_vars', h.name)) put(f.vars, () => f.file);
    const templated = Object.values(vars).some(hasTemplate);
    h.vars = templated
      ? resolveTemplates({ host: h.name, vars, origin, env: o.env, magic: magicVars(h.name, h.groups) })
      : vars;
  }
}

function magicVars(host: string, groups: string[]): Vars {
  return {
    inventory_hostname: host,
    inventory_hostname_short: host.split('.')[0],
    group_names: groups.filter((g) => g !== 'ungrouped'),
  };
}
