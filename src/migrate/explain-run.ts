/** `migrate explain` over its sources: local analysis, the cluster's service, or both compared; one cluster or all. */

import { errText, SmdoctorError } from '../base/errors.ts';
import { escapeControls as esc, fence, mdText } from '../text/index.ts';
import type { Explanation } from '../sml/index.ts';
import { diffValues, differenceLines, type Difference } from './compare.ts';
import { explainWith, type ExplainSources } from './explain.ts';
import { loadMacrosFile, loadMappingsFile } from './files.ts';
import { clusterMacros, clusterMappings, staticMacros, staticMappings } from './providers.ts';
import { renderExplainMarkdown, renderExplainText } from './render.ts';
import { displayable, insertionsOf, serviceExplain } from './service.ts';
import type { ClusterTarget } from './cluster.ts';

export type Source = 'local' | 'service' | 'compare';
/** The report formats of `migrate` (junit has no meaning here). */
export type MigrateFormat = 'text' | 'json' | 'markdown';

export interface Answer {
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
async function answer(
  text: string,
  source: Source,
  files: Partial<ExplainSources>,
  target?: ClusterTarget,
): Promise<Answer> {
  const a: Answer = target ? { api_url: target.api.url, hosts: target.hosts } : {};
  const local = async () =>
    explainWith(text, {
      mappings: files.mappings ?? clusterMappings(target!.api),
      macros: files.macros ?? clusterMacros(target!.api, target!.macrosIndex),
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

function answerText(a: Answer, format: MigrateFormat, tty: boolean): string {
  if (a.error) return `error: ${format === 'markdown' ? mdText(esc(a.error)) : esc(a.error)}\n`;
  if (!a.differences)
    return format === 'markdown'
      ? renderExplainMarkdown(a.explanation!, a.insertions!)
      : renderExplainText(a.explanation!, a.insertions!, { tty });
  const head =
    a.differences.length === 0
      ? ['local and service agree']
      : [
          `local and service differ (${a.differences.length}):`,
          ...a.differences.flatMap((d) => differenceLines(d, '  ').map(esc)),
        ];
  const body = renderExplainText(a.local!, a.insertions!, { tty });
  const text = `${head.join('\n')}\nlocal answer:\n${body}`;
  return format === 'markdown' ? `## migrate explain --source compare\n\n${fence(text, 'text')}\n` : text;
}

const jsonOf = (a: Answer, query: string) =>
  a.error
    ? { error: a.error }
    : a.differences
      ? { query, agree: a.differences.length === 0, differences: a.differences, local: a.local, service: a.service }
      : a.explanation;

/** The files given for mappings and macros; what they leave out is read from the cluster. */
export async function explainFiles(
  mappingsFile: string | undefined,
  macrosFile: string | undefined,
  cwd: string,
): Promise<Partial<ExplainSources>> {
  const files: Partial<ExplainSources> = {};
  if (mappingsFile) files.mappings = staticMappings(await loadMappingsFile(mappingsFile, cwd));
  if (macrosFile) files.macros = staticMacros(await loadMacrosFile(macrosFile, cwd));
  return files;
}

/** Files alone answer locally without a cluster. */
export const needsCluster = (source: Source, files: Partial<ExplainSources>): boolean =>
  !(source === 'local' && files.mappings && files.macros);

/** Files only: the one answer. */
export const explainLocal = (text: string, files: Partial<ExplainSources>): Promise<Answer> =>
  answer(text, 'local', files);

/** One answer per cluster; a fleet's clusters in parallel, one failing cluster does not hide the others. */
export async function explainFleet(
  text: string,
  source: Source,
  files: Partial<ExplainSources>,
  targets: readonly ClusterTarget[],
): Promise<Answer[]> {
  if (targets.length === 1) return [await answer(text, source, files, targets[0])];
  return Promise.all(
    targets.map((t) =>
      answer(text, source, files, t).catch((err: unknown): Answer => {
        if (!(err instanceof SmdoctorError)) throw err;
        return { api_url: t.api.url, hosts: t.hosts, error: errText(err) };
      }),
    ),
  );
}

/** One answer as it stands alone, or a fleet's answers grouped by cluster. */
export function renderAnswers(
  text: string,
  answers: readonly Answer[],
  format: MigrateFormat,
  tty: boolean,
  fleet: boolean,
): string {
  if (!fleet)
    return format === 'json' ? JSON.stringify(jsonOf(answers[0], text), null, 2) : answerText(answers[0], format, tty);
  return format === 'json'
    ? JSON.stringify(
        { clusters: answers.map((a) => ({ api_url: a.api_url, hosts: a.hosts, ...wrap(jsonOf(a, text), a) })) },
        null,
        2,
      )
    : answers.map((a) => `${clusterHeader(a.api_url!, a.hosts!, format)}\n${answerText(a, format, tty)}`).join('\n');
}

const wrap = (j: unknown, a: Answer) => (a.error || a.differences ? (j as object) : { explanation: j });

export function clusterHeader(url: string, hosts: readonly string[], format: MigrateFormat): string {
  const title = `cluster ${url} (${hosts.join(', ')})`;
  return format === 'markdown' ? `# ${mdText(esc(title))}\n` : `== ${esc(title)} ==`;
}
