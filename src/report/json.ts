/** PRODUCT.md's JSON report, key order as documented. */
import type { Report } from '../audit/types.ts';
import { stringifyLong } from '../cluster/json-long.ts';

export function renderJson(r: Report): string {
  const doc = {
    tool: r.tool,
    version: r.version,
    mode: r.mode,
    clusters: r.clusters.map((c) => ({ api_url: c.api_url, name: c.name, nodes: c.nodes, checks: c.checks, notes: c.notes, ...(c.after ? { after: c.after } : {}) })),
    summary: r.summary,
    ...(r.fix ? { fix: r.fix } : {}),
  };
  return `${stringifyLong(doc, 2)}\n`;
}
