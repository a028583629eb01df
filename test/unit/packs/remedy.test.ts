/** Remedies planned as the actions fix already carries out; a remedy fighting another action on the same key is refused. */
import t from 'tap';
import { judgeCheck, refuseConflicts } from '../../../src/packs/index.ts';
import type { Action, CheckResult } from '../../../src/model/index.ts';
import { check, cluster, remedy } from '../../helpers/packs/facts.ts';

const now = new Date();

t.test('set_setting: the exact diff, the file hash, then the restart', async (t) => {
  const f = cluster([{ name: 'd1', yml: 'cluster.name: lab\nbootstrap.memory_lock: false # keep\n' }]);
  const r = judgeCheck(
    check(
      { kind: 'setting', key: 'bootstrap.memory_lock' },
      [{ kind: 'equals', value: true }],
      remedy({ kind: 'set_setting', key: 'bootstrap.memory_lock', value: true }),
    ),
    f,
    6,
    { now },
  );
  t.equal(r.status, 'fail');
  t.match(r.actions, [
    {
      type: 'set-yaml',
      host: 'd1',
      key: 'bootstrap.memory_lock',
      value: true,
      base_sha256: /^[0-9a-f]{64}$/,
      diff: /-bootstrap\.memory_lock: false # keep\n\+bootstrap\.memory_lock: true # keep/,
    },
    { type: 'restart-service', host: 'd1', service: 'opensearch', command: 'systemctl restart opensearch' },
  ]);
});

t.test('remove_plugin, put_cluster_setting, put_index_setting', async (t) => {
  const f = cluster([
    { name: 'd1', plugins: [{ name: 'analysis-icu' }] },
    { name: 'd2', plugins: [] },
  ]);
  const rm = judgeCheck(
    check(
      { kind: 'plugins' },
      [{ kind: 'not_contains', value: 'analysis-icu' }],
      remedy({ kind: 'remove_plugin', name: 'analysis-icu' }),
    ),
    f,
    6,
    { now },
  );
  t.match(rm.actions, [
    {
      type: 'remove-plugin',
      host: 'd1',
      value: 'analysis-icu',
      command: '/app/opensearch/bin/opensearch-plugin remove analysis-icu',
    },
    { type: 'restart-service', host: 'd1' },
  ]);
  t.equal(rm.actions.length, 2, 'only the node that has it');
  const settings = { persistent: { 'action.destructive_requires_name': 'false' } };
  const api = { packReads: { '_cluster/settings': { statusCode: 200, body: settings } } };
  const put = judgeCheck(
    check(
      { kind: 'api', path: '_cluster/settings', pick: 'persistent.action.destructive_requires_name' },
      [{ kind: 'equals', value: 'true' }],
      {
        each: 'cluster',
        ...remedy({ kind: 'put_cluster_setting', key: 'action.destructive_requires_name', value: true }),
      },
    ),
    cluster([{ name: 'd1' }], api),
    6,
    { now },
  );
  t.same(put.actions, [
    {
      type: 'put-settings',
      method: 'PUT',
      api_path: '/_cluster/settings',
      body: { persistent: { 'action.destructive_requires_name': true } },
      status: 'planned',
    },
  ]);
});

// an edit of m1's node_with_sme and the restart that follows it
const smeEdit = (value: boolean): Action[] => [
  {
    type: 'set-yaml',
    host: 'm1',
    path: '/p/opensearch.yml',
    key: 'node.attr.node_with_sme',
    value,
    diff: '',
    status: 'planned',
  },
  { type: 'restart-service', host: 'm1', service: 'opensearch', command: 'r', status: 'planned' },
];

t.test('a conflict with another check on the same key is refused, naming both', async (t) => {
  const vendor: CheckResult = {
    id: 'master-node-with-sme',
    order: 2,
    status: 'fail',
    reason: 'x',
    findings: [],
    actions: [...smeEdit(false)],
  };
  const pack = (id: string, value: boolean, api = '/_cluster/settings'): CheckResult => ({
    id: id as `${string}/${string}`,
    order: 6,
    status: 'fail',
    reason: 'x',
    findings: [],
    actions: [
      ...smeEdit(value),
      { type: 'put-settings', method: 'PUT', api_path: api, body: { persistent: { 'a.b': 1 } }, status: 'planned' },
    ],
  });
  const [v, a, b] = refuseConflicts([vendor, pack('acme/sme', true), pack('other/sme', true, '/_cluster/settings')]);
  t.same(v, vendor, "the vendor's check keeps its actions");
  t.same(
    a!.actions.map((x) => x.type),
    ['put-settings'],
    'the edit and its restart refused, the cluster setting kept',
  );
  t.match(
    a!.findings[0]!.message,
    /remedy of acme\/sme is refused: it conflicts with the action of check master-node-with-sme on m1 \/p\/opensearch\.yml node\.attr\.node_with_sme/,
  );
  t.same(b!.actions, [], 'the second pack meets both');
  t.match(b!.findings.map((f) => f.message).join('\n'), /check acme\/sme on \/_cluster\/settings persistent\.a\.b/);
});
