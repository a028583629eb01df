/** The jobs/dashboards branch of `smdoctor migrate`: list, or confirm, back up and rewrite. */

import { UsageError } from '../../errors.ts';
import { emit, effectiveFormat, type CliContext, type CommonOptions } from '../../cli/context.ts';
import { clusterMacros, clusterMappings } from '../providers.ts';
import { confirm, requireConsentChannel } from '../../cli/prompt.ts';
import { expandHome } from '../../backup.ts';
import { applyEntries } from './apply.ts';
import type { StoredKind } from './extract.ts';
import { findStored, storedConfig } from './find.ts';
import { renderJson, renderText, type ApplyResult } from './output.ts';
import type { Entry } from './analyse.ts';

export async function runStored(ctx: CliContext, kind: StoredKind, opts: CommonOptions & Record<string, unknown>): Promise<number> {
  const format = effectiveFormat(ctx, opts.format, opts.output);
  if (format === 'junit') throw new UsageError(`--format junit is not supported for migrate ${kind}`);
  const apply = opts.apply === true;
  if (apply) requireConsentChannel(ctx, opts.yes, '--apply needs --yes when standard input is not a terminal');
  const warn = (m: string) => ctx.stderr.write(`smdoctor: warning: ${m}\n`);
  const { openCluster } = await import('../cluster.ts');
  const target = await openCluster(opts, ctx.cwd, ctx.env, warn);
  try {
    const found = await findStored(target.api, kind, storedConfig(target.vars), {
      mappings: clusterMappings(target.api), macros: clusterMacros(target.api, target.macrosIndex),
    });
    if (found.missing) warn(`index ${found.index} does not exist on ${target.api.url}: no ${kind} to migrate`);
    for (const w of found.warnings) warn(`${w.index}/${w.doc_id}${w.path ? ` ${w.path}` : ''}: ${w.message}`);
    const { entries, warnings } = found;
    const auto = entries.filter((e) => !e.manual);
    let results: Map<Entry, ApplyResult> | undefined;
    if (apply && auto.length > 0) {
      const question = `Rewrite ${auto.length} quer${auto.length === 1 ? 'y' : 'ies'} in ${found.index} on ${target.api.url}? [y/N] `;
      if (await confirm(ctx, opts.yes, question)) {
        const backupDir = expandHome(typeof opts.backupDir === 'string' ? opts.backupDir : '~/.smdoctor/backups', ctx.env, ctx.cwd);
        const r = await applyEntries(target.api, entries, { backupDir });
        results = r.results;
        if (r.backupPath) ctx.stderr.write(`smdoctor: original documents saved under ${r.backupPath}\n`);
      } else {
        ctx.stderr.write('smdoctor: nothing was changed\n');
        results = new Map(entries.map((e) => [e, { status: e.manual ? 'skipped' : 'declined' } as ApplyResult]));
      }
    }
    const tty = Boolean(ctx.stdout.isTTY) && !opts.output;
    const text = renderText(kind, entries, warnings, { tty, results });
    const out = format === 'json' ? renderJson(entries, results) : format === 'markdown' ? `## migrate ${kind}\n\n\`\`\`text\n${text}\`\`\`\n` : text;
    await emit(ctx, out, opts.output);
    return exitCode(entries, warnings.length, results, (m) => ctx.stderr.write(`smdoctor: ${m}\n`));
  }
  finally {
    await target.api.close();
  }
}

/** 3 when a write failed or met a conflict; 1 while anything still needs replacement or review; else 0. */
function exitCode(entries: Entry[], warnings: number, results: Map<Entry, ApplyResult> | undefined, say: (m: string) => void): number {
  if (results) {
    const bad = [...results.values()].filter((r) => r.status === 'failed' || r.status === 'conflict').length;
    if (bad) {
      say(`${bad} quer${bad === 1 ? 'y was' : 'ies were'} not rewritten (failed or changed since read): see the list`);
      return 3;
    }
    const left = entries.filter((e) => results.get(e)?.status !== 'applied').length;
    return left || warnings ? 1 : 0;
  }
  return entries.length || warnings ? 1 : 0;
}
