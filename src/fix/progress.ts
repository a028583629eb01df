/** Progress of a rolling restart: one rewritten line on a terminal, else one line per node and phase. */
import type { WaitPhase, WaitProgress } from './types.ts';
import { escapeControls } from '../text/index.ts';

const PHASE: Record<WaitPhase, string> = {
  allocation: 'allocation → primaries',
  flush: 'flush',
  restart: 'restarting',
  rejoin: 'waiting to rejoin',
  'rejoin-before-restore':
    'interrupted: waiting for the node to rejoin before restoring allocation (interrupt again to restore at once)',
  restore: 'allocation restored',
  settle: 'waiting for the cluster to settle',
};

const secs = (ms: number): string => `${Math.round(ms / 1000)}s`;

export function progressLine(cluster: string, p: WaitProgress): string {
  const shards =
    p.initializing !== undefined ? `, ${p.initializing} initializing, ${p.unassigned ?? 0} unassigned` : '';
  const limit = p.deadlineMs !== undefined ? ` of ${secs(p.deadlineMs)}` : '';
  // the cluster and node names come from the API: shown, never obeyed
  return `[${escapeControls(cluster)}] ${escapeControls(p.node)}: ${PHASE[p.phase]}${shards} (${secs(p.elapsedMs)}${limit})`;
}

export function rollingProgress(out: { write(s: string): unknown; isTTY?: boolean }): {
  update(cluster: string, p: WaitProgress): void;
  clear(): void;
} {
  const seen = new Set<string>();
  let shown = false;
  return {
    update(cluster, p) {
      const line = `smdoctor: ${progressLine(cluster, p)}`;
      if (out.isTTY) {
        out.write(`\r\x1b[K${line}`);
        shown = true;
        return;
      }
      const key = `${cluster}\0${p.node}\0${p.phase}`;
      if (seen.has(key)) return;
      seen.add(key);
      out.write(`${line}\n`);
    },
    clear() {
      if (shown) out.write('\r\x1b[K');
      shown = false;
    },
  };
}
