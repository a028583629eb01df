/** `migrate explain` with its sources: local analysis, the cluster's service, or both compared; one cluster or all. */

import { errText, SmdoctorError } from '../errors.ts';
import { emit, type CliContext, type CommonOptions, type Format } from '../cli/context.ts';
import type { Explanation } from '../sml/index.ts';
import { diffValues, differenceLines, type Difference } from './compare.ts';
import { exitCodeOf, explainWith, type ExplainSources } from './explain.ts';
import { loadMacrosFile, loadMappingsFile } from './files.ts';
import { clusterMacros, clusterMappings, staticMacros, staticMappings } from './providers.ts';
import { renderMarkdown, renderText } from './render.ts';
import { displayable, insertionsOf, serviceExplain } from './service.ts';
import type { ClusterTarget } from './cluster.ts';

export type Source = 'local' | 'service' | 'compare';

interface Answer {
  api_url?: string;
  hosts?: string[];
  explanation?: Explanation;
  insertions?: number[];
  local?: Explanation;
  service?: Explanation;
  differences?: Difference[];
  error?: string;
}

/** One cluster (or none: files only) answered from the chosen source(s). */
async function answer(text: string, source: Source, files: Partial<ExplainSources>, target?: ClusterTarget): Promise<Answer> {
  const a: Answer = target ? { api_url: target.api.url, hosts: target.hosts } : {};
  const local = async () => explainWith(text, {
    mappings: files.mappings ?? clusterMappings(target!.api), macros: files.macros ?? clusterMacros(target!.api, target!.macrosIndex),
  });
  if (source === 'local') Object.assign(a, await local());
  else if (source === 'service') {
    const x = await serviceExplain(target!.api, text);
    Object.assign(a, { explanation: displayable(x), insertions: insertionsOf(x.original, x.replacement) });
  } else {
    const [l, s] = await Promise.all([local(), serviceExplain(target!.api, text)]);
    // the local answer as it would travel as JSON, so only real differences count
    a.local = JSON.parse(JSON.stringify(l.explanation)) as Explanation;
    Object.assign(a, { service: s, insertions: l.insertions, differences: diffValues(a.local, s) });
  }
  return a;
}

function answerText(a: Answer, format: Format, tty: boolean): string {
  if (a.error) return `error: ${a.error}\n`;
  if (!a.differences) return format === 'markdown' ? renderMarkdown(a.explanation!, a.insertions!) : renderText(a.explanation!, a.insertions!, { tty });
  const head = a.differences.length === 0
    ? ['local and service agree']
    : [`local and service differ (${a.differences.length}):`, ...a.differences.flatMap((d) => differenceLines(d, '  '))];
  const body = renderText(a.local!, a.insertions!, { tty });
  const text = `${head.join('\n')}\nlocal answer:\n${body}`;
  return format === 'markdown' ? `## migrate explain --source compare\n\n\`\`\`text\n${text}\`\`\`\n` : text;
}

const jsonOf = (a: Answer, query: string) => (a.error ? { error: a.error } : a.differences
  ? { query, agree: a.differences.length === 0, differences: a.differences, local: a.local, service: a.service }
  : a.explanation);

function exitOf(a: Answer): number {
  if (a.error || (a.differences && a.differences.length)) return 3;
  return exitCodeOf(a.explanation ?? a.local!);
}

export async function runExplain(ctx: CliContext, text: string, opts: CommonOptions & Record<string, unknown>, format: Format): Promise<number> {
  const source = (opts.source ?? 'local') as Source;
  const str = (k: string) => (typeof opts[k] === 'string' ? (opts[k] as string) : undefined);
  const files: Partial<ExplainSources> = {};
  const mappingsFile = str('mappings');
  const macrosFile = str('macros');
  if (mappingsFile) files.mappings = staticMappings(await loadMappingsFile(mappingsFile, ctx.cwd));
  if (macrosFile) files.macros = staticMacros(await loadMacrosFile(macrosFile, ctx.cwd));
  const tty = Boolean(ctx.stdout.isTTY) && !opts.output;
  if (source === 'local' && files.mappings && files.macros) {
    const a = await answer(text, source, files);
    await emit(ctx, format === 'json' ? JSON.stringify(jsonOf(a, text), null, 2) : answerText(a, format, tty), opts.output);
    return exitOf(a);
  }
  // only what no file gives is read from the cluster; the inventory code loads only then
  const { openClusters } = await import('./cluster.ts');
  const targets = await openClusters(opts, ctx.cwd, ctx.env, (m) => ctx.stderr.write(`smdoctor: warning: ${m}\n`));
  try {
    if (targets.length === 1) {
      const a = await answer(text, source, files, targets[0]);
      await emit(ctx, format === 'json' ? JSON.stringify(jsonOf(a, text), null, 2) : answerText(a, format, tty), opts.output);
      return exitOf(a);
    }
    // a fleet: every cluster in parallel, one failing cluster does not hide the others
    const answers = await Promise.all(targets.map((t) => answer(text, source, files, t).catch((err: unknown): Answer => {
      if (!(err instanceof SmdoctorError)) throw err;
      return { api_url: t.api.url, hosts: t.hosts, error: errText(err) };
    })));
    const out = format === 'json'
      ? JSON.stringify({ clusters: answers.map((a) => ({ api_url: a.api_url, hosts: a.hosts, ...wrap(jsonOf(a, text), a) })) }, null, 2)
      : answers.map((a) => `${clusterHeader(a.api_url!, a.hosts!, format)}\n${answerText(a, format, tty)}`).join('\n');
    await emit(ctx, out, opts.output);
    return Math.max(...answers.map(exitOf));
  } finally {
    await Promise.all(targets.map((t) => t.api.close().catch(() => undefined)));
  }
}

const wrap = (j: unknown, a: Answer) => (a.error || a.differences ? (j as object) : { explanation: j });

export function clusterHeader(url: string, hosts: readonly string[], format: Format): string {
  const title = `cluster ${url} (${hosts.join(', ')})`;
  return format === 'markdown' ? `# ${title}\n` : `== ${title} ==`;
}
