/** The three views of `smdoctor inventory`: --list JSON, --graph tree, --host variables. */
import { stringifyJson } from '../base/json-text.ts';
import { clustersOf } from './clusters.ts';
import { reachable } from './hostconfig.ts';
import { redactVars } from './redact.ts';
import type { Inventory, Vars } from './types.ts';
import { shownVars } from './used.ts';

function sortedVars(vars: Vars): Vars {
  return Object.fromEntries(
    Object.keys(vars)
      .sort()
      .map((k) => [k, vars[k]]),
  );
}

/**
 * `--list`: every host, and the clusters of those smdoctor reaches. A host it never reaches (winrm, network_cli…)
 * is shown as written, as ansible-inventory shows it, and is in no cluster: no value of it is used.
 */
export function listJson(inv: Inventory, hosts: string[], env?: NodeJS.ProcessEnv): string {
  const out: Record<string, { groups: string[]; vars: Vars }> = {};
  const reached: string[] = [];
  for (const name of hosts) {
    const h = inv.hosts.get(name)!;
    const reach = reachable(h.vars);
    if (reach) reached.push(name);
    out[name] = { groups: h.groups, vars: sortedVars(redactVars(shownVars(h.vars, reach))) };
  }
  const clusters = clustersOf(inv, reached, env).map((c) => ({ api_url: c.apiUrl, hosts: c.hosts }));
  // floats as Python writes them (25.0), as ansible-inventory shows them
  return `${stringifyJson({ hosts: out, clusters }, 2)}\n`;
}

export function hostJson(inv: Inventory, name: string): string {
  const vars = inv.hosts.get(name)!.vars;
  return `${stringifyJson(sortedVars(redactVars(shownVars(vars, reachable(vars)))), 2)}\n`;
}

/** Like `ansible-inventory --graph`: children first (repeated wherever they occur), then hosts; `all` lists no hosts. */
export function graphText(inv: Inventory, hosts: string[], top = 'all'): string {
  const keep = new Set(hosts);
  const lines: string[] = [];
  const name = (s: string, depth: number) => (depth ? `${'  |'.repeat(depth)}--${s}` : s);
  const walk = (g: string, depth: number) => {
    const group = inv.groups.get(g)!;
    lines.push(name(`@${g}:`, depth));
    for (const c of group.children) walk(c, depth + 1);
    if (g !== 'all') for (const h of group.hosts) if (keep.has(h)) lines.push(name(h, depth + 1));
  };
  walk(top, 0);
  return `${lines.join('\n')}\n`;
}
