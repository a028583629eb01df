/** Ansible's ini inventory plugin: [group], [group:vars], [group:children], `host k=v`; errors go on to the next line. */
import type { InventoryBuilder } from './builder.ts';
import { pythonLiteral, shlexSplit } from './literal.ts';
import { expandHostPattern } from './ranges.ts';
import { checkAddress } from './validate.ts';

const SECTION = /^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:#.*)?$/;
const GROUPNAME = /^([^:\]\s]+)\s*(?:#.*)?$/;

interface Pending {
  line: number;
  state: 'vars' | 'children';
  parents: Array<{ name: string; line: number }>;
}

export function readIni(b: InventoryBuilder, text: string): void {
  const pending = new Map<string, Pending>();
  let group = 'ungrouped';
  let state = 'hosts';
  const addPendingChildren = (g: string) => {
    for (const p of pending.get(g)!.parents) link(p.name, g, p.line);
    pending.delete(g);
  };
  const link = (parent: string, child: string, line: number) => {
    const cycle = b.addChild(parent, child);
    if (cycle) b.error(`children form a cycle: ${cycle.join(' -> ')}`, line, 1);
    if (pending.get(parent)?.state === 'children') addPendingChildren(parent);
  };

  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.trim();
    if (!line || line[0] === '#' || line[0] === ';') return;
    const col = raw.indexOf(line[0]) + 1;
    const m = SECTION.exec(line);
    if (m) {
      group = m[1];
      state = m[2] ?? 'hosts';
      if (!['hosts', 'children', 'vars'].includes(state)) {
        b.error(
          `section [${m[1]}:${m[2]}] has unknown type '${m[2]}': use [${m[1]}], [${m[1]}:vars] or [${m[1]}:children]`,
          lineNo,
          col,
        );
        state = 'skip';
        return;
      }
      if (!b.groups.has(group)) {
        // [g:vars] alone does not declare g: remember it and check at the end
        if (state === 'vars' && !pending.has(group)) pending.set(group, { line: lineNo, state: 'vars', parents: [] });
        b.addGroup(group);
      }
      if (pending.has(group) && state !== 'vars') {
        if (pending.get(group)!.state === 'children') addPendingChildren(group);
        else pending.delete(group);
      }
      return;
    }
    if (line.startsWith('[') && line.endsWith(']')) {
      b.error(
        `invalid section header '${line}': write [group], [group:vars] or [group:children] with no spaces`,
        lineNo,
        col,
      );
      state = 'skip';
      return;
    }
    if (line.startsWith('[') || state === 'skip') {
      if (state !== 'skip') b.error(`invalid section header '${line}': missing ']'`, lineNo, col);
      return;
    }
    if (state === 'vars') {
      const eq = line.indexOf('=');
      if (eq < 0) return b.error(`expected key=value in [${group}:vars], got '${line}'`, lineNo, col);
      const k = line.slice(0, eq).trim();
      if (!k) return b.error(`empty variable name in '${line}'`, lineNo, col);
      b.setGroupVar(group, k, pythonLiteral(line.slice(eq + 1).trim()));
    } else if (state === 'children') {
      const c = GROUPNAME.exec(line);
      if (!c) return b.error(`expected a group name in [${group}:children], got '${line}'`, lineNo, col);
      const child = c[1];
      if (!b.groups.has(child)) {
        const p = pending.get(child);
        if (p) p.parents.push({ name: group, line: lineNo });
        else pending.set(child, { line: lineNo, state: 'children', parents: [{ name: group, line: lineNo }] });
      } else link(group, child, lineNo);
    } else hostLine(b, group, line, lineNo, col);
  });

  for (const [name, p] of pending) {
    if (p.state === 'vars')
      b.error(
        `section [${name}:vars] is for a group that is not defined anywhere: add [${name}] or [${name}:children]`,
        p.line,
        1,
      );
    else {
      const parent = p.parents[p.parents.length - 1];
      b.error(`section [${parent.name}:children] includes undefined group '${name}': define [${name}]`, parent.line, 1);
    }
  }
}

function hostLine(b: InventoryBuilder, group: string, line: string, lineNo: number, col: number): void {
  let tokens: string[];
  try {
    tokens = shlexSplit(line);
  } catch (e) {
    return b.error(`cannot parse host line '${line}': ${(e as Error).message}`, lineNo, col);
  }
  if (!tokens.length) return;
  const vars: Record<string, unknown> = {};
  for (const t of tokens.slice(1)) {
    const eq = t.indexOf('=');
    if (eq < 0) return b.error(`expected key=value host variable, got '${t}'`, lineNo, col + line.indexOf(t));
    vars[t.slice(0, eq)] = pythonLiteral(t.slice(eq + 1));
  }
  const pattern = tokens[0];
  let hosts: string[];
  let port: number | undefined;
  try {
    if (!b.room()) return;
    ({ hosts, port } = expandHostPattern(pattern, b.room()));
  } catch (e) {
    return b.error(`host pattern '${pattern}': ${(e as Error).message}`, lineNo, col);
  }
  if (pattern.trim().endsWith(':') && port === undefined) {
    return b.error(`host pattern '${pattern}' ends in ':' (reserved for a port); is this a YAML file?`, lineNo, col);
  }
  if (hosts.some((h) => h.trim() === '---')) return b.error(`host pattern '---' looks like a YAML file`, lineNo, col);
  if (!b.admit(hosts, pattern, lineNo, col)) return;
  for (const h of hosts) {
    if (!checkAddress(b, h, vars, lineNo, col)) continue;
    b.addHost(h, group, port);
    for (const [k, v] of Object.entries(vars)) b.setHostVar(h, k, v);
  }
}
