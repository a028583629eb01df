/** Builds an Inventory as Ansible's InventoryData does: groups, hosts, children, then reconcile and merge. */
import type { SourcePos } from '../base/errors.ts';
import type { Inventory, InventoryGroup, InventoryHost, InventoryWarning, Vars } from './types.ts';
import { MAX_HOSTS } from './ranges.ts';

export interface Problem {
  message: string;
  pos: SourcePos;
}

interface Group extends InventoryGroup {
  parents: string[];
}

export class InventoryBuilder {
  readonly groups = new Map<string, Group>();
  readonly hostVars = new Map<string, Vars>();
  readonly hostGroups = new Map<string, string[]>();
  readonly errors: Problem[] = [];
  readonly warnings: InventoryWarning[] = [];
  readonly priority = new Map<string, number>();
  /** Each group's hosts as a set: a lookup per addHost must not scan the group (80k hosts were 12 s). */
  private readonly members = new Map<string, Set<string>>();
  private full = false;

  readonly file: string;
  constructor(file: string) {
    this.file = file;
    this.addGroup('all');
    this.addGroup('ungrouped');
    this.addChild('all', 'ungrouped');
  }

  error(message: string, line?: number, col?: number): void {
    this.errors.push({ message, pos: { file: this.file, line, col } });
  }

  /** What Ansible skips with a warning (a group or key of the wrong shape). */
  warn(message: string, line?: number, col?: number): void {
    this.warnings.push({ code: 'skipped', message, pos: { file: this.file, line, col } });
  }

  addGroup(name: string): Group {
    let g = this.groups.get(name);
    if (!g) this.groups.set(name, (g = { name, children: [], hosts: [], vars: {}, parents: [] }));
    return g;
  }

  /** Adds the host (first sighting sets the port, as Ansible's Host() does) and puts it in the group. */
  addHost(name: string, group: string, port?: number): void {
    this.knowHost(name, port);
    const g = this.addGroup(group);
    let m = this.members.get(group);
    if (!m) this.members.set(group, (m = new Set(g.hosts)));
    if (!m.has(name)) {
      m.add(name);
      g.hosts.push(name);
    }
    const hg = this.hostGroups.get(name)!;
    if (!hg.includes(group)) hg.push(group);
  }

  /** Registers the host, in no group yet: the order hosts are first seen is the inventory's host order. */
  knowHost(name: string, port?: number): void {
    if (this.hostVars.has(name)) return;
    this.hostVars.set(name, port === undefined ? {} : { ansible_port: port });
    this.hostGroups.set(name, []);
  }

  /** Hosts one pattern may still add (0 once the cap was hit). */
  room(): number {
    return this.full ? 0 : MAX_HOSTS;
  }

  /** Whether these hosts fit under MAX_HOSTS; past it, one error naming the pattern and nothing more is added. */
  admit(hosts: string[], pattern: string, line?: number, col?: number): boolean {
    if (this.full) return false;
    let fresh = 0;
    for (const h of hosts) if (!this.hostVars.has(h)) fresh++;
    if (this.hostVars.size + fresh <= MAX_HOSTS) return true;
    this.full = true;
    this.error(
      `host pattern '${pattern}' takes the inventory past ${MAX_HOSTS.toLocaleString('en-US')} hosts, the most smdoctor reads`,
      line,
      col,
    );
    return false;
  }

  setHostVar(host: string, key: string, value: unknown): void {
    this.hostVars.get(host)![key] = value;
  }

  /** ansible_group_priority is not a variable: Group.set_variable keeps it as the group's sort priority. */
  setGroupVar(group: string, key: string, value: unknown): void {
    if (key === 'ansible_group_priority') {
      const p = Number.parseInt(String(value), 10);
      if (!Number.isNaN(p)) this.priority.set(group, p);
      return;
    }
    this.addGroup(group).vars[key] = value;
  }

  /** Returns the cycle (as names) when the edge would create one, else adds it. */
  addChild(parent: string, child: string): string[] | undefined {
    const p = this.addGroup(parent);
    const c = this.addGroup(child);
    if (p.children.includes(child)) return undefined;
    const path = this.pathDown(child, parent);
    if (path || parent === child) return [parent, ...(path ?? [child])];
    p.children.push(child);
    c.parents.push(parent);
    return undefined;
  }

  /** A path of child edges from `from` to `to`, if any. */
  private pathDown(from: string, to: string, seen = new Set<string>()): string[] | undefined {
    if (from === to) return [from];
    if (seen.has(from)) return undefined;
    seen.add(from);
    for (const k of this.groups.get(from)?.children ?? []) {
      const rest = this.pathDown(k, to, seen);
      if (rest) return [from, ...rest];
    }
    return undefined;
  }

  /** reconcile_inventory, then every host's groups and merged variables. */
  build(): Inventory {
    for (const g of this.groups.values()) if (g.name !== 'all' && g.parents.length === 0) this.addChild('all', g.name);
    const ungrouped = this.groups.get('ungrouped')!;
    const leaving = new Set<string>();
    for (const [h, direct] of this.hostGroups) {
      const others = direct.filter((g) => g !== 'all' && g !== 'ungrouped');
      if (others.length && direct.includes('ungrouped')) {
        leaving.add(h);
        direct.splice(direct.indexOf('ungrouped'), 1);
      } else if (!others.length && !direct.includes('ungrouped')) {
        ungrouped.hosts.push(h);
        direct.push('ungrouped');
      }
    }
    // one pass, not one scan per host that leaves
    if (leaving.size) ungrouped.hosts = ungrouped.hosts.filter((x) => !leaving.has(x));
    const depth = this.depths();
    const priority = (g: Group) => this.priority.get(g.name) ?? 1;
    const hosts = new Map<string, InventoryHost>();
    for (const [name, direct] of this.hostGroups) {
      const all = this.ancestors(direct);
      const ordered = [...all]
        .map((n) => this.groups.get(n)!)
        .sort(
          (a, b) =>
            depth.get(a.name)! - depth.get(b.name)! ||
            priority(a) - priority(b) ||
            (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
        );
      const vars: Vars = {};
      for (const g of ordered) Object.assign(vars, g.vars);
      Object.assign(vars, this.hostVars.get(name));
      all.delete('all');
      hosts.set(name, { name, groups: [...all].sort(), vars });
    }
    const groups = new Map<string, InventoryGroup>();
    for (const g of this.groups.values())
      groups.set(g.name, { name: g.name, children: g.children, hosts: g.hosts, vars: g.vars });
    return { file: this.file, hosts, groups };
  }

  private ancestors(direct: string[]): Set<string> {
    const out = new Set<string>();
    const visit = (n: string) => {
      if (out.has(n)) return;
      out.add(n);
      for (const p of this.groups.get(n)?.parents ?? []) visit(p);
    };
    direct.forEach(visit);
    out.add('all');
    return out;
  }

  /** Longest path from `all`, as Group.depth ends up after every edge is added. */
  private depths(): Map<string, number> {
    const d = new Map<string, number>();
    const of = (n: string, stack = new Set<string>()): number => {
      if (d.has(n)) return d.get(n)!;
      if (n === 'all' || stack.has(n)) return 0;
      stack.add(n);
      const ps = this.groups.get(n)?.parents ?? [];
      const v = ps.length ? Math.max(...ps.map((p) => of(p, stack) + 1)) : 0;
      stack.delete(n);
      d.set(n, v);
      return v;
    };
    for (const n of this.groups.keys()) of(n);
    return d;
  }
}
