import t from 'tap';
import { limitsIndexReplicas, autoExpand } from '../../../src/checks/index.ts';
import { cluster, limitsSettings, shardRows, NOT_FOUND_INDEX } from '../../helpers/checks/facts.ts';

const PUT = {
  type: 'put-settings',
  method: 'PUT',
  api_path: '/.sm_sme_limits_user/_settings',
  body: { index: { auto_expand_replicas: '0-all' } },
  status: 'planned',
};
const VERIFY = {
  type: 'verify-shards',
  method: 'GET',
  api_path: '/_cat/shards/.sm_sme_limits_user?v=true',
  status: 'planned',
};
const D1 = { name: 'd1', ip: '10.0.0.4' };
const D2 = { name: 'd2', ip: '10.0.0.5' };

t.test('auto_expand_replicas values', async (t) => {
  const cases: Array<{ value: string | undefined; status: string }> = [
    { value: '0-all', status: 'pass' },
    { value: 'false', status: 'fail' },
    { value: undefined, status: 'fail' },
    { value: '0-1', status: 'fail' },
    { value: '1-all', status: 'fail' },
  ];
  for (const c of cases) {
    const r = limitsIndexReplicas.run(cluster({ api: { limitsSettings: limitsSettings(c.value) } }));
    t.equal(r.status, c.status, String(c.value));
    if (c.status === 'fail') {
      t.same(r.actions, [PUT, VERIFY], `${c.value}: put then verify`);
      t.match(r.findings, [
        { message: new RegExp(`is "${c.value ?? 'false'}"`), evidence: { value: c.value ?? 'false' } },
      ]);
    } else t.same(r.actions, []);
  }
  t.equal(
    autoExpand({ '.sm_sme_limits_user': { settings: { 'index.auto_expand_replicas': '0-all' } } }),
    '0-all',
    'flat_settings',
  );
});

t.test('0-all but a data node holds no started copy', async (t) => {
  const cases = [
    { name: 'one node missing', rows: shardRows([D1]), missing: ['d2'] },
    {
      name: 'initializing',
      rows: [...shardRows([D1]), ...shardRows([D2], 'INITIALIZING').map((r) => ({ ...r, prirep: 'r' }))],
      missing: ['d2'],
    },
    {
      name: 'unassigned',
      rows: [
        ...shardRows([D1]),
        {
          index: '.sm_sme_limits_user',
          shard: '0',
          prirep: 'r',
          state: 'UNASSIGNED',
          docs: null,
          store: null,
          ip: null,
          node: null,
        },
      ],
      missing: ['d2'],
    },
    { name: 'no rows', rows: [], missing: ['d1', 'd2'] },
  ];
  for (const c of cases) {
    const r = limitsIndexReplicas.run(cluster({ api: { limitsShards: c.rows } }));
    t.match(r, { status: 'fail', reason: new RegExp(c.missing.join(', ')) }, c.name);
    t.same(r.actions, [VERIFY], `${c.name}: verify only`);
    t.same(
      r.findings.filter((f) => f.kind === undefined).map((f) => f.evidence?.node),
      c.missing,
      `${c.name}: named`,
    );
  }
  const two = limitsIndexReplicas.run(
    cluster({ api: { limitsShards: [...shardRows([D1, D2]), ...shardRows([D1]).map((r) => ({ ...r, shard: '1' }))] } }),
  );
  t.match(
    two,
    { status: 'fail', findings: [{ evidence: { node: 'd2', shards: ['1'] } }] },
    'every shard on every data node',
  );
});

t.test('index missing: fail, settings put after check 1 creates it', async (t) => {
  const r = limitsIndexReplicas.run(cluster({ api: { limitsSettings: NOT_FOUND_INDEX } }));
  t.match(r, { status: 'fail', findings: [{ message: /after check base-limit-document creates it/ }] });
  t.same(r.actions, [PUT, VERIFY]);
});

t.test('undecidable: error', async (t) => {
  t.match(limitsIndexReplicas.run(cluster({ api: { reachable: false, error: 'ECONNREFUSED' } })), {
    status: 'error',
    reason: /unreachable: ECONNREFUSED/,
    actions: [],
  });
  t.match(limitsIndexReplicas.run(cluster({ api: { limitsSettings: { statusCode: 403, body: {} } } })), {
    status: 'error',
    reason: /HTTP 403/,
  });
  t.match(limitsIndexReplicas.run(cluster({ api: { limitsSettings: undefined } })), {
    status: 'error',
    reason: /not read/,
  });
});

t.test('the name is an alias: settings and shard rows come under the concrete index names', async (t) => {
  const CONCRETE = '.sm_sme_limits_user-000001';
  const behind = (value: string) => {
    const s = limitsSettings(value);
    return { ...s, body: { [CONCRETE]: s.body['.sm_sme_limits_user'] } };
  };
  const rows = (nodes: Array<{ name: string; ip: string }>) => shardRows(nodes).map((r) => ({ ...r, index: CONCRETE }));
  const healthy = limitsIndexReplicas.run(
    cluster({ api: { limitsSettings: behind('0-all'), limitsShards: rows([D1, D2]) } }),
  );
  t.equal(healthy.status, 'pass', 'no false failure on settings or shards');
  t.same(healthy.findings, []);
  const wrong = limitsIndexReplicas.run(cluster({ api: { limitsSettings: behind('0-1'), limitsShards: rows([D1]) } }));
  t.equal(wrong.status, 'fail');
  t.match(wrong.findings, [
    {
      message: `index.auto_expand_replicas of ${CONCRETE} (behind alias .sm_sme_limits_user) is "0-1", not "0-all"`,
      evidence: { value: '0-1', index: CONCRETE },
    },
  ]);
  t.same(wrong.actions, [PUT, VERIFY], 'PUT through the alias reaches every index behind it');
  const lacking = limitsIndexReplicas.run(
    cluster({ api: { limitsSettings: behind('0-all'), limitsShards: rows([D1]) } }),
  );
  t.equal(lacking.status, 'fail');
  t.match(lacking.findings, [
    { message: new RegExp(`d2.*holds no started copy of shard 0 of ${CONCRETE} \\(behind alias`) },
  ]);
});
