/** The top of the page: per severity and per pack, how many cells of each status and the clusters each failing
 * check fails on. After a fix, as the audit after applying saw it. */
import type { ClusterReport } from '../../model/index.ts';
import { bySeverity, byPack, type Tally } from '../tally.ts';
import { esc } from '../../text/index.ts';
import { STATUS_SIGN, WORST_FIRST } from './status.ts';

/** Clusters named beside a failing check before the rest are counted (all of them in its title). */
const NAMED = 4;

const COLUMNS = WORST_FIRST;

function failingHtml(t: Tally): string {
  if (!t.failing.length) return '<span class="mut">—</span>';
  const items = t.failing.map((f) => {
    const shown = f.clusters.slice(0, NAMED).map(esc).join(', ');
    const more = f.clusters.length > NAMED ? ` and ${f.clusters.length - NAMED} more` : '';
    return `<li><code>${esc(f.id)}</code> on <span title="${esc(f.clusters.join('\n'))}">${f.clusters.length} cluster${f.clusters.length === 1 ? '' : 's'}: ${shown}${more}</span></li>`;
  });
  return `<ul class="failing">${items.join('')}</ul>`;
}

function tallyTable(name: string, tallies: readonly Tally[], kind: string): string {
  const head = `<tr><th scope="col">${name}</th><th scope="col" class="n">checks</th>${COLUMNS.map((s) => `<th scope="col" class="n"><span class="c st-${s}">${STATUS_SIGN[s]}</span> ${s}</th>`).join('')}<th scope="col">fails or errs on</th></tr>`;
  const rows = tallies.map(
    (t) =>
      `<tr data-key="${esc(t.key)}"${t.counts.fail + t.counts.error ? ' class="bad"' : ''}><th scope="row">${esc(t.key)}</th><td class="n">${t.checks}</td>${COLUMNS.map((s) => `<td class="n${t.counts[s] === 0 ? ' zero' : s !== 'pass' && s !== 'skip' ? ` hot-${s}` : ''}">${t.counts[s]}</td>`).join('')}<td>${failingHtml(t)}</td></tr>`,
  );
  return `<table class="tally ${kind}">${head}${rows.join('')}</table>`;
}

export function summaryHtml(clusters: readonly ClusterReport[]): string {
  const after = clusters.some((c) => c.after) ? ', after the fix' : '';
  return `<section class="summary"><h2>Summary${after}</h2><p class="mut">Cells are clusters × checks.</p>${tallyTable('severity', bySeverity(clusters), 'by-severity')}${tallyTable('pack', byPack(clusters), 'by-pack')}</section>`;
}
