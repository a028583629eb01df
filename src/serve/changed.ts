/** serve --history: a report is kept only when a check's state changed, so the history holds events, not polls. */
import type { Report } from '../model/index.ts';

/** What counts as the fleet's state: each check's status per cluster, and which hosts were reached. */
const stateOf = (r: Report): string =>
  JSON.stringify(
    r.clusters.map((c) => [
      c.api_url,
      c.checks.map((k) => [k.id, k.status]),
      c.nodes.map((n) => [n.host, n.reachable]),
    ]),
  );

export const stateChanged = (previous: Report | null, now: Report): boolean =>
  previous === null || stateOf(previous) !== stateOf(now);
