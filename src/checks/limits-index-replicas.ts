/** Check 5: the limits index (LIMITS_INDEX) must auto-expand to every data node, and every data node must hold a started copy. */
import { LIMITS_INDEX, checkOrder, type Action, type Check, type ClusterFacts } from '../model/index.ts';
import { SettingsAnswer, shaped } from '../cluster/shapes.ts';
import { apiDown, describeNode, errorResult, finish, isDataNode, tally } from './util.ts';

const putSettings = (): Action => ({
  type: 'put-settings',
  method: 'PUT',
  api_path: `/${LIMITS_INDEX}/_settings`,
  body: { index: { auto_expand_replicas: '0-all' } },
  status: 'planned',
});
const verifyShards = (): Action => ({
  type: 'verify-shards',
  method: 'GET',
  api_path: `/_cat/shards/${LIMITS_INDEX}?v=true`,
  status: 'planned',
});

/**
 * The indices the limits index name stands for: the keys of its settings answer, which the engine writes under
 * each concrete index name (the index itself, or the indices an alias of that name points to).
 */
export function concreteIndices(body: unknown): string[] {
  const keys = typeof body === 'object' && body !== null ? Object.keys(body).sort() : [];
  return keys.length ? keys : [LIMITS_INDEX];
}

/** `index.auto_expand_replicas` of one index from nested or flat_settings bodies; the engine's default is "false". */
export function autoExpand(body: unknown, index = concreteIndices(body)[0]): string {
  const settings = shaped(SettingsAnswer, body, `GET /${LIMITS_INDEX}/_settings`)[index]?.settings ?? {};
  const nested = (settings.index as Record<string, unknown> | undefined)?.auto_expand_replicas;
  const flat = settings['index.auto_expand_replicas'];
  const v = nested ?? flat;
  return v === undefined || v === null ? 'false' : String(v);
}

function run(facts: ClusterFacts) {
  const down = apiDown(facts);
  if (down) return errorResult('limits-index-replicas', down);
  const answer = facts.api.limitsSettings;
  if (!answer) return errorResult('limits-index-replicas', `GET /${LIMITS_INDEX}/_settings was not read`);
  const t = tally();
  if (answer.statusCode === 404) {
    t.findings.push({
      message: `index ${LIMITS_INDEX} does not exist; its settings are put after check base-limit-document creates it with the base limit document`,
      evidence: { status: 404, body: answer.body },
    });
    t.actions.push(putSettings(), verifyShards());
    t.failed.push(`index ${LIMITS_INDEX} is missing`);
    return finish('limits-index-replicas', t, '');
  }
  if (answer.statusCode !== 200)
    return errorResult('limits-index-replicas', `GET /${LIMITS_INDEX}/_settings answered HTTP ${answer.statusCode}`);
  const indices = concreteIndices(answer.body);
  // behind an alias, findings name the concrete index the engine reports
  const label = (index: string) => (index === LIMITS_INDEX ? index : `${index} (behind alias ${LIMITS_INDEX})`);
  const wrong = indices
    .map((index) => ({ index, value: autoExpand(answer.body, index) }))
    .filter((w) => w.value !== '0-all');
  if (wrong.length) {
    for (const { index, value } of wrong)
      t.findings.push({
        message: `index.auto_expand_replicas of ${label(index)} is "${value}", not "0-all"`,
        evidence: { setting: 'index.auto_expand_replicas', value, ...(index === LIMITS_INDEX ? {} : { index }) },
      });
    t.actions.push(putSettings(), verifyShards());
    t.failed.push(`index.auto_expand_replicas is ${[...new Set(wrong.map((w) => `"${w.value}"`))].join(', ')}`);
    return finish('limits-index-replicas', t, '');
  }
  // `_cat/shards/<alias>` rows carry the concrete index names
  const rows = facts.api.limitsShards.filter((r) => r.index == null || indices.includes(r.index));
  const missing: string[] = [];
  for (const index of indices) {
    const own = rows.filter((r) => (r.index ?? indices[0]) === index);
    const shards = [...new Set(own.map((r) => r.shard ?? '0'))];
    if (shards.length === 0) shards.push('0');
    for (const n of facts.nodes.filter(isDataNode)) {
      const lacking = shards.filter(
        (s) => !own.some((r) => (r.shard ?? '0') === s && r.node === n.name && r.state === 'STARTED'),
      );
      if (lacking.length === 0) continue;
      if (!missing.includes(n.name)) missing.push(n.name);
      const held = own.filter((r) => r.node === n.name).map((r) => `${r.shard}${r.prirep} ${r.state}`);
      t.findings.push({
        host: n.host,
        message: `data node ${describeNode(n)} holds no started copy of shard ${lacking.join(', ')} of ${label(index)}`,
        evidence: { node: n.name, shards: lacking, held, ...(index === LIMITS_INDEX ? {} : { index }) },
      });
    }
  }
  if (missing.length > 0) {
    const unassigned = rows.filter((r) => r.state === 'UNASSIGNED').length;
    if (unassigned > 0)
      t.findings.push({
        kind: 'note',
        message: `${unassigned} cop${unassigned === 1 ? 'y is' : 'ies are'} UNASSIGNED`,
      });
    t.actions.push(verifyShards());
    t.failed.push(
      `data node${missing.length === 1 ? '' : 's'} ${missing.join(', ')} hold${missing.length === 1 ? 's' : ''} no started copy`,
    );
  }
  return finish(
    'limits-index-replicas',
    t,
    `index.auto_expand_replicas is "0-all" and every data node holds a started copy`,
  );
}

export const limitsIndexReplicas: Check = {
  id: 'limits-index-replicas',
  order: checkOrder('limits-index-replicas'),
  troubleshootingRow:
    '| 5 | GET `/.sm_sme_limits_user/_settings` | `auto_expand_replicas` is not `0-all` | PUT `index.auto_expand_replicas` = `0-all`; then verify with GET `/_cat/shards/.sm_sme_limits_user?v=true` that shards are on all data (hot) nodes |',
  run,
};
