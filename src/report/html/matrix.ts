/** The fleet at a glance: an HTML table, clusters as rows, checks as columns grouped by pack, each cell coloured
 * and marked by status (never colour alone); headers stick while it scrolls. What does not pass comes first; the
 * whole fleet follows, collapsed when anything fails. After a fix, as the audit after applying saw it. */
import { CHECK_IDS, isCheckStatus, type ClusterReport } from '../../model/index.ts';
import { clusterLabel } from '../describe.ts';
import { cellsOf, needsLook, packOf, shortId, type Cell } from '../tally.ts';
import { clip, esc } from '../../text/index.ts';
import { STATUS_SIGN, STATUS_WORD, WORST_FIRST } from './status.ts';

/** A column label longer than this is cut; its title keeps the whole id. */
const LABEL_CHARS = 40;

interface Row {
  index: number;
  label: string;
  cells: Map<string, Cell>;
}

/** The vendor's five, then every pack check seen, in the order of the reports' checks. */
const columnsOf = (clusters: readonly ClusterReport[]): string[] => [
  ...new Set<string>([...CHECK_IDS, ...clusters.flatMap((c) => c.checks.map((k) => k.id))]),
];

function cellHtml(row: Row, id: string, g0: string): string {
  const k = row.cells.get(id);
  if (!k)
    return `<td class="c none" data-check="${esc(id)}" data-status="none" title="${esc(`${row.label} · ${id}: not run`)}">·</td>`;
  // a class and a sign only for a status smdoctor knows; another value (a file from elsewhere) shows escaped
  const known = isCheckStatus(k.status);
  const word = known ? STATUS_WORD[k.status] : String(k.status);
  return `<td class="c${g0}${known ? ` st-${k.status}` : ''}" data-check="${esc(id)}" data-status="${known ? k.status : 'none'}" title="${esc(`${row.label} · ${id}: ${word} — ${k.reason}`)}">${known ? STATUS_SIGN[k.status] : '?'}</td>`;
}

function table(rows: readonly Row[], columns: readonly string[], kind: string): string {
  const groups: Array<{ pack: string; ids: string[] }> = [];
  for (const id of columns) {
    const pack = packOf(id);
    const last = groups.at(-1);
    if (last?.pack === pack) last.ids.push(id);
    else groups.push({ pack, ids: [id] });
  }
  const packRow = groups
    .map(
      (g) =>
        `<th class="pack" colspan="${g.ids.length}" scope="colgroup" title="${esc(g.pack)}">${esc(clip(g.pack, 24))}</th>`,
    )
    .join('');
  // the first column of each pack says the pack in its label too: a narrow group's header has no room for it
  const first = new Set(groups.map((g) => g.ids[0]));
  const idRow = columns
    .map((id) => {
      const pack = first.has(id) && id.includes('/') ? `<small class="mut">${esc(clip(packOf(id), 24))}/</small>` : '';
      return `<th class="col${first.has(id) ? ' g0' : ''}" scope="col" data-check="${esc(id)}" title="${esc(id)}"><span>${pack}${esc(clip(shortId(id), LABEL_CHARS))}</span></th>`;
    })
    .join('');
  const startsGroup = (id: string): string => (first.has(id) ? ' g0' : '');
  const body = rows
    .map(
      (r) =>
        `<tr data-cluster="${r.index}"><th class="cl" scope="row" title="${esc(r.label)}"><a href="#cluster-${r.index}">${esc(r.label)}</a></th>${columns.map((id) => cellHtml(r, id, startsGroup(id))).join('')}</tr>`,
    )
    .join('');
  return `<div class="matrix-wrap"><table class="matrix ${kind}"><thead><tr><th class="corner" rowspan="2" scope="col">cluster</th>${packRow}</tr><tr class="ids">${idRow}</tr></thead><tbody>${body}</tbody></table></div>`;
}

const LEGEND = `<p class="legend mut">${WORST_FIRST.map(
  (s) => `<span class="c st-${s}">${STATUS_SIGN[s]}</span> ${STATUS_WORD[s].toLowerCase()}`,
).join(' · ')} · <span class="c none">·</span> not run — hover a cell for its reason</p>`;

export function matrixHtml(clusters: readonly ClusterReport[]): string {
  const rows: Row[] = clusters.map((c, index) => ({
    index,
    label: clusterLabel(c),
    cells: new Map(cellsOf(c).map((k) => [k.id, k])),
  }));
  const columns = columnsOf(clusters);
  const bad = (r: Row, id: string): boolean => {
    const k = r.cells.get(id);
    return k !== undefined && needsLook(k.status);
  };
  const badColumns = columns.filter((id) => rows.some((r) => bad(r, id)));
  const badRows = rows.filter((r) => columns.some((id) => bad(r, id)));
  // the whole fleet with the columns and rows that need a look first
  const restColumns = columns.filter((id) => !badColumns.includes(id));
  const all = table([...badRows, ...rows.filter((r) => !badRows.includes(r))], [...badColumns, ...restColumns], 'all');
  const whole = `${rows.length} cluster${rows.length === 1 ? '' : 's'} × ${columns.length} checks`;
  if (!badColumns.length)
    return `<p class="good">Every check passes (or was skipped) on every cluster.</p>${LEGEND}<details class="passes" open><summary>The whole fleet: ${whole}</summary>${all}</details>`;
  const look = `<h3>What does not pass: ${badRows.length} cluster${badRows.length === 1 ? '' : 's'} × ${badColumns.length} check${badColumns.length === 1 ? '' : 's'}</h3>${table(badRows, badColumns, 'look')}`;
  return `${LEGEND}${look}<details class="passes"><summary>The whole fleet: ${whole}, what does not pass first</summary>${all}</details>`;
}
