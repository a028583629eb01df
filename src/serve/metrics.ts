/** serve's /metrics: the report's exposition of the last cycle, and the families only a long-running process has. */
import { renderReport } from '../report/render.ts';
import { exposition, type Family } from '../report/prometheus/exposition.ts';
import type { CycleState } from './cycle.ts';
import type { HostLink } from './kept.ts';

function serveFamilies(state: CycleState, links: ReadonlyMap<string, HostLink>): Family[] {
  const nodes = state.last?.report.clusters.flatMap((c) =>
    c.nodes.flatMap((n) =>
      n.host === null ? [] : [{ cluster: c.name, api_url: c.api_url, host: n.host, up: n.reachable }],
    ),
  );
  return [
    {
      name: 'smdoctor_host_reachable',
      help: 'Whether the last cycle reached the inventory host over SSH (1) or not (0).',
      type: 'gauge',
      samples: (nodes ?? []).map((n) => ({
        labels: { cluster: n.cluster, api_url: n.api_url, host: n.host },
        value: n.up ? 1 : 0,
      })),
    },
    {
      name: 'smdoctor_host_connected',
      help: 'Whether serve holds an open SSH connection to the host now (it reconnects with backoff when it has none).',
      type: 'gauge',
      samples: [...links].map(([host, l]) => ({ labels: { host }, value: l.connected ? 1 : 0 })),
    },
    {
      name: 'smdoctor_cycles_total',
      help: 'Audit cycles completed since serve started.',
      type: 'counter',
      samples: [{ value: state.cycles }],
    },
    {
      name: 'smdoctor_cycle_failures_total',
      help: 'Audit cycles that could not complete since serve started (the last completed report stays served).',
      type: 'counter',
      samples: [{ value: state.failures }],
    },
  ];
}

export function serveMetrics(state: CycleState, links: ReadonlyMap<string, HostLink>): string {
  const own = exposition(serveFamilies(state, links));
  // before the first cycle only serve's own families: a scrape still succeeds and says nothing has run
  return state.last
    ? renderReport(state.last.report, 'prometheus', { durationSeconds: state.last.durationSeconds }) + own
    : own;
}
