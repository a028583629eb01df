/** The fleet at a glance: clusters × the checks (the five, then the packs'), one cell per check coloured by status and labelled with it;
 * after a fix, as the audit after applying saw them. */
import { CHECK_IDS, type ClusterReport } from '../../model/index.ts';
import { currentChecks } from '../current.ts';
import { clusterLabel } from '../describe.ts';
import { clip, esc } from '../../text/index.ts';
import { STATUS_FILL, STATUS_WORD } from './status.ts';

const CELL_W = 150;
const CELL_H = 28;
const LABEL_W = 260;
const HEAD_H = 40;

/** The vendor's five, then every pack check seen, in the order of the reports' checks. */
const columnsOf = (clusters: readonly ClusterReport[]): string[] => [
  ...new Set<string>([...CHECK_IDS, ...clusters.flatMap((c) => c.checks.map((k) => k.id))]),
];

export function matrixSvg(clusters: readonly ClusterReport[]): string {
  const columns = columnsOf(clusters);
  const width = LABEL_W + columns.length * CELL_W + 10;
  const height = HEAD_H + clusters.length * CELL_H + 10;
  const parts: string[] = [];
  columns.forEach((id, j) => {
    const x = LABEL_W + j * CELL_W + CELL_W / 2;
    parts.push(`<text x="${x}" y="${HEAD_H - 20}" text-anchor="middle" font-size="12">${j + 1}</text>`);
    parts.push(
      `<text x="${x}" y="${HEAD_H - 6}" text-anchor="middle" font-size="11" class="mut">${esc(clip(id, 24))}<title>${esc(id)}</title></text>`,
    );
  });
  clusters.forEach((c, i) => {
    const y = HEAD_H + i * CELL_H;
    const label = clusterLabel(c);
    parts.push(`<text x="4" y="${y + 18}" font-size="12">${esc(clip(label, 34))}<title>${esc(label)}</title></text>`);
    columns.forEach((id, j) => {
      const k = currentChecks(c).find((x) => x.id === id);
      const x = LABEL_W + j * CELL_W;
      const status = k?.status ?? 'skip';
      const word = k ? STATUS_WORD[status] : 'not run';
      parts.push(
        `<g class="cell" data-check="${esc(id)}" data-status="${k ? status : 'none'}"><rect x="${x + 2}" y="${y + 2}" width="${CELL_W - 4}" height="${CELL_H - 4}" rx="3" fill="${k ? STATUS_FILL[status] : 'none'}" stroke="#888"/><text class="${k ? 'cell-text' : 'mut'}" x="${x + CELL_W / 2}" y="${y + 18}" text-anchor="middle" font-size="12">${word}</text><title>${esc(`${label} · ${id}: ${k ? `${word} — ${k.reason}` : 'not run'}`)}</title></g>`,
      );
    });
  });
  return `<svg class="matrix" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="clusters by check" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}
