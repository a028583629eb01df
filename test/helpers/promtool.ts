/** Prometheus's own checker (Debian's `prometheus` package) and an independent parser of the text format. */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { execa } from 'execa';

export interface ParsedFamily {
  name: string;
  help: string;
  type: string;
  metrics: Array<{ value: string; labels?: Record<string, string> }>;
}

const parser = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => ParsedFamily[];

/** The families as parse-prometheus-text-format reads them (a port of the Python client's parser). */
export const parseMetrics = (text: string): ParsedFamily[] => parser(text);

/** promtool's path, or null when it is not installed (those assertions are then skipped, said in the test). */
export const promtool = (): string | null =>
  ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => existsSync(p)) ?? null;

/** `promtool <args>` with stdin; its exit code and both outputs. */
export async function runPromtool(args: string[], input?: string) {
  const r = await execa(promtool()!, args, { input, reject: false, env: { PATH: '/usr/bin:/bin' } });
  return { code: r.exitCode ?? -1, out: `${r.stdout}\n${r.stderr}` };
}
