import { UsageError } from '../../errors.ts';
import { emit, effectiveFormat, type CliContext, type CommonOptions } from '../context.ts';
import { exitCodeOf, explainWith, type ExplainSources } from '../../migrate/explain.ts';
import { loadMacrosFile, loadMappingsFile } from '../../migrate/files.ts';
import { clusterMacros, clusterMappings, staticMacros, staticMappings } from '../../migrate/providers.ts';
import { readQuery } from '../../migrate/query.ts';
import { renderMarkdown, renderText } from '../../migrate/render.ts';
import type { ClusterApi } from '../../cluster/types.ts';

export async function runMigrate(
  ctx: CliContext,
  sub: 'explain' | 'jobs' | 'dashboards',
  opts: CommonOptions & Record<string, unknown>,
  query?: string,
): Promise<number> {
  if (sub !== 'explain') {
    const { runStored } = await import('../../migrate/stored/cli.ts');
    return runStored(ctx, sub, opts);
  }
  const format = effectiveFormat(ctx, opts.format, opts.output);
  if (format === 'junit') throw new UsageError('--format junit is not supported for migrate explain');
  const str = (k: string) => (typeof opts[k] === 'string' ? (opts[k] as string) : undefined);
  const text = await readQuery({ arg: query, file: str('file'), stdin: ctx.stdin, cwd: ctx.cwd });

  const mappingsFile = str('mappings');
  const macrosFile = str('macros');
  let api: ClusterApi | undefined;
  try {
    const sources: Partial<ExplainSources> = {};
    if (mappingsFile) sources.mappings = staticMappings(await loadMappingsFile(mappingsFile, ctx.cwd));
    if (macrosFile) sources.macros = staticMacros(await loadMacrosFile(macrosFile, ctx.cwd));
    if (!sources.mappings || !sources.macros) {
      // only what no file gives is read from the cluster; the inventory code loads only then
      const { openCluster } = await import('../../migrate/cluster.ts');
      const target = await openCluster(opts, ctx.cwd, ctx.env, (m) => ctx.stderr.write(`smdoctor: warning: ${m}\n`));
      api = target.api;
      sources.mappings ??= clusterMappings(api);
      sources.macros ??= clusterMacros(api, target.macrosIndex);
    }
    const { explanation, insertions } = await explainWith(text, sources as ExplainSources);
    const out = format === 'json'
      ? JSON.stringify(explanation, null, 2)
      : format === 'markdown'
        ? renderMarkdown(explanation, insertions)
        : renderText(explanation, insertions, { tty: Boolean(ctx.stdout.isTTY) && !opts.output });
    await emit(ctx, out, opts.output);
    return exitCodeOf(explanation);
  } finally {
    await api?.close();
  }
}
