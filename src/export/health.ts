/** The health rule of fix in Jinja: green with nothing moving, or with smd_allow_yellow a settled yellow. */
import { dataNodeCount } from '../fix/gate.ts';
import type { ClusterReport } from '../model/index.ts';
import { uri } from './tasks.ts';

/** `h` is an expression of a `_cluster/health` body; `baseline` the unassigned shards a settled yellow may keep. */
export function settledExpr(clusterReport: ClusterReport, h: string, baseline: string): string {
  const still = `(${h}.relocating_shards | int) + (${h}.initializing_shards | int) == 0`;
  const green = `(${h}.status == 'green' and ${still})`;
  const yellow =
    `(smd_allow_yellow | bool and ${h}.status == 'yellow' and ${still}` +
    ` and (${h}.number_of_data_nodes | int) >= ${dataNodeCount(clusterReport.nodes)}` +
    ` and (${h}.delayed_unassigned_shards | default(0) | int) == 0` +
    ` and (${h}.unassigned_shards | int) <= (${baseline} | int))`;
  return `${green} or ${yellow}`;
}

/** Polls `_cluster/health` (waiting server-side too) until the rule holds, for at most the wait's retries. */
export function waitSettled(
  c: ClusterReport,
  name: string,
  register: string,
  baseline: string,
): Record<string, unknown> {
  const wait =
    '/_cluster/health?wait_for_no_relocating_shards=true&wait_for_no_initializing_shards=true' +
    "&wait_for_status={{ 'yellow' if smd_allow_yellow | bool else 'green' }}&timeout={{ smd_wait_delay }}s";
  return {
    name,
    ...uri('GET', wait, { status_code: [200, 408] }),
    register,
    until: `${register}.json is defined and (${settledExpr(c, `${register}.json`, baseline)})`,
    retries: '{{ smd_wait_retries }}',
    delay: '{{ smd_wait_delay }}',
    check_mode: false,
    changed_when: false,
  };
}
