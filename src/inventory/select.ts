/** Ansible host patterns (--limit): names, groups, fnmatch wildcards, ~regex, [i]/[a:b] subscripts, a:b, a:&b, a:!b. */
import { InputError } from '../base/errors.ts';
import type { Inventory } from './types.ts';
import { parseAddress } from './ranges.ts';

/** split_host_pattern: commas if there are any; else one address (`:::`, `host:22`) stays whole, as Ansible keeps it; else colons and spaces outside [brackets]. */
export function splitPattern(pattern: string): string[] {
  if (pattern.includes(','))
    return pattern
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
  const term = pattern.trim();
  if (parseAddress(term)) return [term];
  return term.match(/(?:[^\s:[\]]|\[[^\]]*\])+/g) ?? [];
}

/** fnmatch.translate: *, ?, [seq], [!seq], whole-string match. */
function fnmatchRe(p: string): RegExp {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const j = p.indexOf(']', i + 2);
      if (j < 0) re += '\\[';
      else {
        let body = p.slice(i + 1, j).replace(/\\/g, '\\\\');
        if (body[0] === '!') body = `^${body.slice(1)}`;
        re += `[${body}]`;
        i = j;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^(?:${re})$`, 's');
}

function matcher(p: string): (s: string) => boolean {
  if (p.startsWith('~')) {
    const re = new RegExp(p.slice(1));
    return (s) => re.exec(s)?.index === 0;
  }
  const re = fnmatchRe(p);
  return (s) => re.test(s);
}

/** Hosts of a group and its descendants, depth first, in order. */
function groupHosts(inv: Inventory, name: string, out: Set<string>, seen = new Set<string>()): void {
  if (seen.has(name)) return;
  seen.add(name);
  const g = inv.groups.get(name)!;
  for (const c of g.children) groupHosts(inv, c, out, seen);
  for (const h of g.hosts) out.add(h);
  if (name === 'all') for (const h of inv.hosts.keys()) out.add(h);
}

const SUBSCRIPT = /^(.+)\[(?:(-?[0-9]+)|([0-9]+)([:-])([0-9]+)?)\]$/;

function matchOne(inv: Inventory, pattern: string): string[] {
  let sub: [number, number | undefined] | undefined;
  const m = pattern.startsWith('~') ? null : SUBSCRIPT.exec(pattern);
  if (m) {
    pattern = m[1];
    sub =
      m[2] !== undefined ? [Number(m[2]), Number(m[2])] : [Number(m[3]), m[5] === undefined ? undefined : Number(m[5])];
  }
  const test = matcher(pattern);
  const found = new Set<string>();
  let groupsMatched = false;
  for (const g of inv.groups.keys()) {
    if (!test(g)) continue;
    groupsMatched = true;
    groupHosts(inv, g, found);
  }
  if (!groupsMatched || /^~|[.?*[]/.test(pattern)) for (const h of inv.hosts.keys()) if (test(h)) found.add(h);
  let hosts = [...found];
  if (sub) {
    const [a, b] = sub;
    const at = (i: number) => (i < 0 ? hosts.length + i : i);
    hosts = b === undefined ? hosts.slice(at(a)) : a === b ? hosts.slice(at(a), at(a) + 1) : hosts.slice(a, b + 1);
  }
  return hosts;
}

/** The hosts a pattern selects, in inventory order; every term must match something. */
export function selectHosts(inv: Inventory, pattern?: string): string[] {
  if (!inv.hosts.size)
    throw new InputError(
      `the inventory ${inv.file} has no hosts (groups only: are its host lines commented out?): nothing to audit or fix`,
    );
  const terms = splitPattern(pattern ?? 'all');
  const plain = terms.filter((t) => t[0] !== '&' && t[0] !== '!');
  const ordered = [
    ...(plain.length ? plain : ['all']),
    ...terms.filter((t) => t[0] === '&'),
    ...terms.filter((t) => t[0] === '!'),
  ];
  let sel = new Set<string>();
  const empty: string[] = [];
  for (const t of ordered) {
    const body = t[0] === '&' || t[0] === '!' ? t.slice(1) : t;
    let hosts: string[];
    try {
      hosts = matchOne(inv, body);
    } catch (e) {
      throw new InputError(`bad host pattern '${t}': ${(e as Error).message}`);
    }
    if (!hosts.length) empty.push(body);
    if (t[0] === '&') {
      const keep = new Set(hosts);
      sel = new Set([...sel].filter((h) => keep.has(h)));
    } else if (t[0] === '!') for (const h of hosts) sel.delete(h);
    else for (const h of hosts) sel.add(h);
  }
  if (empty.length)
    throw new InputError(
      `--limit: ${empty.map((p) => `'${p}'`).join(', ')} ${empty.length > 1 ? 'match' : 'matches'} no host or group of ${inv.file}`,
    );
  const result = [...inv.hosts.keys()].filter((h) => sel.has(h));
  if (!result.length) throw new InputError(`--limit '${pattern}' selects no hosts of ${inv.file}`);
  return result;
}
