/** The JSON report (schema/report.json), keys in the documented order. */
import type { Report } from '../model/index.ts';
import { stringifyLong } from '../base/json-long.ts';

export function renderJson(report: Report): string {
  const doc = {
    ...(report.schema_version !== undefined ? { schema_version: report.schema_version } : {}),
    ...(report.generated_at !== undefined ? { generated_at: report.generated_at } : {}),
    tool: report.tool,
    version: report.version,
    mode: report.mode,
    clusters: report.clusters.map((c) => ({
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
    summary: report.summary,
    ...(report.fix ? { fix: report.fix } : {}),
    ...(report.shard ? { shard: report.shard } : {}),
  };
  return `${stringifyLong(doc, 2)}\n`;
}
