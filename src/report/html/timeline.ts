/** A fix's plan as a timeline in the order it runs: edits, removals, the rolling restart node by node with its waits. */
import type { Action, ClusterReport } from '../../model/index.ts';
import { electedLast, isEngineRestart } from '../../fix/order.ts';
import { actionLine } from '../describe.ts';
import { clip, esc } from '../../text/index.ts';
import { ACTION_FILL } from './status.ts';

const ROW = 26;

/** Every action of the cluster in run order: the cluster's own first, then the checks', the elected manager's restart last. */
export function runOrder(clusterReport: ClusterReport): Action[] {
  const all = [...(clusterReport.actions ?? []), ...clusterReport.checks.flatMap((k) => k.actions)];
  return electedLast(all, clusterReport.nodes, clusterReport.pins?.elected_manager ?? null);
}

const KIND: Record<Action['type'], string> = {
  'put-document': 'API',
  'put-settings': 'API',
  'verify-shards': 'verify',
  'reset-allocation': 'API',
  'set-yaml': 'edit',
  'set-hosts': 'edit',
  'remove-plugin': 'remove',
  'remove-keystore-entry': 'remove',
  'restart-service': 'restart',
};

interface Row {
  text: string;
  full: string;
  fill: string | null;
  status: string;
}

function rows(actions: Action[]): Row[] {
  const out: Row[] = [];
  actions.forEach((a, i) => {
    const line = actionLine(a);
    out.push({
      text: `${i + 1}. [${KIND[a.type]}] ${line}`,
      full: line,
      fill: ACTION_FILL[a.status],
      status: a.status,
    });
    // a data node's restart holds allocation and waits for the node to rejoin and the cluster to settle
    if (isEngineRestart(a))
      out.push({
        text: `wait: ${a.host} rejoins, the cluster is green again`,
        full: 'wait for the node to rejoin and the cluster to be green (or settled yellow with --allow-yellow)',
        fill: null,
        status: 'wait',
      });
  });
  return out;
}

export function timelineSvg(c: ClusterReport): string {
  const list = rows(runOrder(c));
  const width = 900;
  const height = list.length * ROW + 16;
  const parts = [`<line x1="20" y1="14" x2="20" y2="${height - 14}" stroke="#888" stroke-width="2"/>`];
  list.forEach((r, i) => {
    const y = 14 + i * ROW;
    parts.push(
      r.fill
        ? `<circle cx="20" cy="${y}" r="7" fill="${r.fill}"><title>${esc(r.status)}</title></circle>`
        : `<rect x="14" y="${y - 5}" width="12" height="10" fill="none" stroke="#888"/>`,
    );
    parts.push(
      `<text x="40" y="${y + 4}" font-size="12"${r.fill ? '' : ' class="mut"'}>${esc(clip(r.text, 130))}<title>${esc(r.full)}</title></text>`,
    );
  });
  return `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the plan in the order it runs" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}
