/** The JSON report (schema/report.json), keys in the documented order. */
import type { Report } from '../model/index.ts';
import { stringifyLong } from '../cluster/json-long.ts';

export function renderJson(r: Report): string {
  const doc = {
    ...(r.schema_version !== undefined ? { schema_version: r.schema_version } : {}),
    ...(r.generated_at !== undefined ? { generated_at: r.generated_at } : {}),
    tool: r.tool,
    version: r.version,
    mode: r.mode,
    clusters: r.clusters.map((c) => ({
      api_url: c.api_url,
      name: c.name,
      nodes: c.nodes,
      checks: c.checks,
      notes: c.notes,
      ...(c.actions?.length ? { actions: c.actions } : {}),
      ...(c.pins ? { pins: c.pins } : {}),
      ...(c.refused?.length ? { refused: c.refused } : {}),
      ...(c.after ? { after: c.after } : {}),
      ...(c.topology ? { topology: c.topology } : {}),
    })),
    summary: r.summary,
    ...(r.fix ? { fix: r.fix } : {}),
  };
  return `${stringifyLong(doc, 2)}\n`;
}
