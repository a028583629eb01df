/** `--format html`: one self-contained page for people: the fleet matrix, then each cluster with its pictures. */
import type { Report } from '../../model/index.ts';
import { fixLine, summaryLine } from '../describe.ts';
import { clusterSection } from './cluster.ts';
import { esc } from '../../text/index.ts';
import { matrixHtml } from './matrix.ts';
import { summaryHtml } from './summary.ts';
import { needsLook } from '../tally.ts';
import { page } from './page.ts';

export interface HtmlOptions {
  /** Past reports kept with --history, oldest first: a strip of the last runs per check. */
  history?: readonly Report[];
}

export function renderHtml(report: Report, opts: HtmlOptions = {}): string {
  const history = opts.history ?? [];
  const fixed = fixLine(report);
  const after = report.clusters.some((c) => c.after);
  const body = [
    `<header><h1>smdoctor ${esc(report.mode)} — ${esc(summaryLine(report))}${after ? ' (before the fix)' : ''}</h1>`,
    `<p class="mut">smdoctor ${esc(report.version)}${report.generated_at ? ` · ${esc(report.generated_at)}` : ''}${fixed ? ` · fix: ${esc(fixed)}` : ''}</p></header>`,
    summaryHtml(report.clusters),
    `<section class="fleet"><h2>Clusters × checks${after ? ', after the fix' : ''}</h2>${matrixHtml(report.clusters)}</section>`,
    ...report.clusters.map((c, i) => clusterSection(c, i, history)),
  ];
  // "only what does not pass" is the view when anything fails: the passes stay collapsed
  const onlyBad = report.clusters.some((c) => c.checks.some((k) => needsLook(k.status)));
  return page(`smdoctor ${esc(report.mode)} — ${esc(summaryLine(report))}`, body.join('\n'), { onlyBad });
}
