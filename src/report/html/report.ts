/** `--format html`: one self-contained page for people: the fleet matrix, then each cluster with its pictures. */
import type { Report } from '../../model/index.ts';
import { fixLine, summaryLine } from '../describe.ts';
import { clusterSection } from './cluster.ts';
import { esc } from '../../text/index.ts';
import { matrixSvg } from './matrix.ts';
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
    `<section class="fleet"><h2>Clusters × checks${after ? ', after the fix' : ''}</h2><figure>${matrixSvg(report.clusters)}</figure></section>`,
    ...report.clusters.map((c, i) => clusterSection(c, i, history)),
  ];
  return page(`smdoctor ${esc(report.mode)} — ${esc(summaryLine(report))}`, body.join('\n'));
}
