/** One cluster's section: topology, checks with findings, the plan as a timeline with its diffs, before/after, notes. */
import type { Action, CheckResult, ClusterReport, Report } from '../../model/index.ts';
import { STATUS_MARK, actionBody, actionLine, clusterLabel, findingLine, waiverLine } from '../describe.ts';
import { diffHtml } from './diff.ts';
import { esc } from '../../text/index.ts';
import { stripHtml, stripOf } from './history.ts';
import { badge } from './status.ts';
import { lookFirst } from '../tally.ts';
import { runOrder, timelineSvg } from './timeline.ts';
import { topologySvg } from './topology.ts';

function actionItem(action: Action): string {
  const mark = STATUS_MARK[action.status] ? `${STATUS_MARK[action.status]} ` : '';
  const body = actionBody(action);
  return `<li class="action" data-filter data-status="${action.status === 'done' ? 'pass' : action.status}"><code>${esc(mark + actionLine(action))}</code>${action.backup ? ` <span class="mut">backup ${esc(action.backup)}</span>` : ''}${action.diff ? diffHtml(action.diff) : ''}${body ? `<pre>${esc(body)}</pre>` : ''}${action.output ? `<pre>${esc(action.output)}</pre>` : ''}</li>`;
}

/** A pack check's title, severity, why and docs link, and its waiver; nothing for the vendor's checks. */
function aboutHtml(k: CheckResult): string {
  // a report read back from a file may hold any link: only http(s) becomes one
  const docs = (d: string) =>
    /^https?:\/\//.test(d) ? `<a href="${esc(d)}" rel="noopener noreferrer">${esc(d)}</a>` : esc(d);
  const lines = [
    ...(k.title !== undefined
      ? [`<strong>${esc(k.title)}</strong> <span class="mut">severity ${esc(k.severity ?? 'critical')}</span>`]
      : []),
    ...(k.why !== undefined ? [esc(k.why)] : []),
    ...(k.docs !== undefined ? [docs(k.docs)] : []),
    ...(k.waiver ? [`<em>${esc(waiverLine(k.waiver))}</em>`] : []),
  ];
  return lines.length ? `<div class="about">${lines.map((l) => `<div>${l}</div>`).join('')}</div>` : '';
}

function checksTable(clusterReport: ClusterReport, history: readonly Report[]): string {
  const row = (k: CheckResult, detail: boolean): string => {
    const findings = k.findings.length
      ? `<ul>${k.findings.map((f) => `<li>${esc(findingLine(f))}</li>`).join('')}</ul>`
      : '';
    const strip = history.length ? `<td>${stripHtml(stripOf(history, clusterReport.api_url, k.id))}</td>` : '';
    // a passing check is its reason; its why, docs and evidence are for what does not pass
    const text = detail ? `${aboutHtml(k)}${esc(k.reason)}${findings}` : esc(k.reason);
    return `<tr class="check" data-filter data-check="${esc(k.id)}" data-status="${k.status}"><td>${k.order}</td><td><code>${esc(k.id)}</code></td><td>${badge(k.status)}</td><td>${text}</td>${strip}</tr>`;
  };
  const head = `<tr><th>#</th><th>check</th><th>status</th><th>reason and findings</th>${history.length ? `<th>last ${history.length} runs</th>` : ''}</tr>`;
  const { look, rest } = lookFirst(clusterReport.checks);
  const shown = look.length
    ? `<table class="checks look">${head}${look.map((k) => row(k, true)).join('')}</table>`
    : '';
  if (!rest.length) return shown;
  const passed = rest.filter((k) => k.status === 'pass').length;
  const words = `${passed} pass${rest.length > passed ? `, ${rest.length - passed} skipped` : ''}`;
  // what passes is collapsed when anything needs a look; open when all is well
  return `${shown}<details class="passes"${look.length ? '' : ' open'}><summary>${look.length ? 'The other' : 'All'} ${rest.length} check${rest.length === 1 ? '' : 's'}: ${words}</summary><table class="checks rest">${head}${rest.map((k) => row(k, k.actions.length > 0)).join('')}</table></details>`;
}

function beforeAfter(c: ClusterReport): string {
  if (!c.after) return '';
  const rows = c.checks.map((k) => {
    const a = c.after!.checks.find((x) => x.id === k.id);
    return `<tr data-check="${esc(k.id)}"><td><code>${esc(k.id)}</code></td><td>${badge(k.status)}</td><td>${a ? `${badge(a.status)} ${esc(a.reason)}` : '<span class="mut">not run</span>'}</td></tr>`;
  });
  return `<h3>Before and after the fix</h3><table class="before-after"><tr><th>check</th><th>before</th><th>after</th></tr>${rows.join('')}</table>`;
}

export function clusterSection(c: ClusterReport, i: number, history: readonly Report[]): string {
  const label = clusterLabel(c);
  const out = [`<section class="cluster" id="cluster-${i}" data-name="${esc(label)}"><h2>Cluster ${esc(label)}</h2>`];
  if (c.refused?.length)
    out.push(
      `<h3>Refused — nothing (more) was changed in this cluster</h3><ul>${c.refused.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>`,
    );
  if (c.topology)
    out.push(
      `<figure><figcaption>Topology: nodes by role, ★ the elected manager, ✗ what a check fails on</figcaption>${topologySvg(c.topology, label, i)}</figure>`,
    );
  else
    out.push(
      `<p class="mut">Nodes: ${esc(c.nodes.map((n) => `${n.name ?? n.host ?? n.address} [${n.roles.join(',') || '-'}]`).join('; '))}</p>`,
    );
  out.push(checksTable(c, history));
  const actions = runOrder(c);
  if (actions.length) {
    out.push(
      `<h3>Plan, in the order it runs</h3><figure>${timelineSvg(c)}</figure><ol class="plan">${actions.map(actionItem).join('')}</ol>`,
    );
  }
  out.push(beforeAfter(c));
  if (c.notes.length)
    out.push(`<h3>Notes</h3><ul>${c.notes.map((n) => `<li>${esc(findingLine(n))}</li>`).join('')}</ul>`);
  out.push('</section>');
  return out.join('\n');
}
