/** Pure parts of the rolling procedure and of reviewed plans: order, the health gate, drift, plan shape and age. */
import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { electedLast } from '../../../src/fix/order.ts';
import { unmet } from '../../../src/fix/gate.ts';
import { pinDrift } from '../../../src/fix/drift.ts';
import { parseDuration, readPlan } from '../../../src/fix/plan-file.ts';
import { allocationLeftover } from '../../../src/audit/pins.ts';
import type { ClusterPins } from '../../../src/model/index.ts';
import { NODES, planned } from '../../helpers/fix/fakes.ts';

t.test("the elected manager's restart moves after every other restart, nothing else moves", async (t) => {
  const r = (h: string) =>
    planned({ type: 'restart-service', host: h, service: 'opensearch', command: `restart ${h}` });
  const e = (h: string) => planned({ type: 'set-yaml', host: h, path: '/x' });
  const plan = [e('m1'), r('m1'), e('m2'), r('m2'), e('d1'), r('d1')];
  const order = (xs: typeof plan) => xs.map((a) => `${a.type === 'set-yaml' ? 'edit' : 'restart'} ${a.host}`);
  t.same(order(electedLast(plan, NODES, 'm1')), [
    'edit m1',
    'edit m2',
    'restart m2',
    'edit d1',
    'restart d1',
    'restart m1',
  ]);
  t.same(order(electedLast(plan, NODES, 'd1')), order(plan), 'already last');
  t.same(order(electedLast(plan, NODES, null)), order(plan));
});

t.test('the gate: green with nothing moving; a settled yellow only with --allow-yellow', async (t) => {
  const rule = { allowYellow: false, dataNodes: 3, baselineUnassigned: 1 };
  const green = {
    status: 'green',
    number_of_data_nodes: 3,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: 0,
    delayed_unassigned_shards: 0,
  };
  t.equal(unmet(green, rule), null);
  t.match(unmet({ ...green, initializing_shards: 1 }, rule), /moving/);
  const yellow = { ...green, status: 'yellow', unassigned_shards: 1 };
  t.match(unmet(yellow, rule), /not green/);
  const allow = { ...rule, allowYellow: true };
  t.equal(unmet(yellow, allow), null);
  t.match(unmet({ ...yellow, number_of_data_nodes: 2 }, allow), /2 of 3 data nodes/);
  t.match(unmet({ ...yellow, delayed_unassigned_shards: 1 }, allow), /delayed/);
  t.match(unmet({ ...yellow, unassigned_shards: 2 }, allow), /2 unassigned, 1 before/);
  t.match(unmet({ ...green, status: 'red' }, allow), /red/);
});

const PINS: ClusterPins = {
  nodes: [
    { name: 'n1', ip: '10.0.0.1', roles: ['cluster_manager', 'data'] },
    { name: 'n2', ip: '10.0.0.2', roles: ['data'] },
  ],
  elected_manager: 'n1',
  cluster_settings: { persistent: {}, transient: {} },
  index_settings: { index: { number_of_replicas: '1' } },
};

t.test('drift names each change', async (t) => {
  t.same(pinDrift(PINS, structuredClone(PINS)), []);
  const now = structuredClone(PINS);
  now.nodes.pop();
  now.nodes.push({ name: 'n3', ip: '10.0.0.3', roles: ['data'] });
  now.elected_manager = 'n3';
  now.cluster_settings!.persistent['cluster.routing.allocation.enable'] = 'primaries';
  const d = pinDrift(PINS, now);
  t.match(d, [
    /joined or changed n3/,
    /left or changed n2/,
    /elected cluster manager changed: n1 → n3/,
    /cluster settings changed/,
  ]);
});

t.test('a leftover allocation setting is a note with a reset-allocation action', async (t) => {
  t.equal(allocationLeftover(PINS), null);
  const left = allocationLeftover({
    ...PINS,
    cluster_settings: { persistent: { 'cluster.routing.allocation.enable': 'primaries' }, transient: {} },
  });
  t.match(left, {
    note: { kind: 'note', message: /"primaries"/ },
    action: {
      type: 'reset-allocation',
      status: 'planned',
      body: {
        persistent: { 'cluster.routing.allocation.enable': null },
        transient: { 'cluster.routing.allocation.enable': null },
      },
    },
  });
  t.equal(
    allocationLeftover({
      ...PINS,
      cluster_settings: {
        persistent: { 'cluster.routing.allocation.enable': 'primaries' },
        transient: { 'cluster.routing.allocation.enable': 'all' },
      },
    }),
    null,
    'transient all wins',
  );
});

t.test('plan files: shape, schema_version and age', async (t) => {
  const dir = t.testdir({});
  const now = Date.parse('2026-01-02T00:00:00Z');
  const plan = {
    schema_version: 3,
    generated_at: '2026-01-01T12:00:00Z',
    tool: 'smdoctor',
    version: '0.2.0',
    mode: 'audit',
    clusters: [{ api_url: 'u', name: 'u', nodes: [], notes: [], pins: PINS, checks: [] }],
    summary: { clusters: 1, hosts: 0, unreachable: 0, checks_failed: 0 },
  };
  const write = async (name: string, x: unknown) => {
    const f = join(dir, name);
    await writeFile(f, typeof x === 'string' ? x : JSON.stringify(x));
    return f;
  };
  t.match(await readPlan(await write('ok.json', plan), parseDuration('24h'), now), { mode: 'audit' });
  await t.rejects(readPlan(await write('old.json', plan), parseDuration('6h'), now), {
    name: 'InputError',
    message: /12\.0h old, older than --plan-max-age \(6\.0h\)/,
  });
  await t.rejects(readPlan(await write('v1.json', { ...plan, schema_version: 1 }), 86_400_000, now), {
    message: /schema_version 1/,
  });
  await t.rejects(readPlan(await write('none.json', { ...plan, schema_version: undefined }), 86_400_000, now), {
    message: /schema_version none/,
  });
  await t.rejects(readPlan(await write('bad.json', '{'), 86_400_000, now), { message: /not a JSON report/ });
  await t.rejects(readPlan(await write('fix.json', { ...plan, mode: 'fix' }), 86_400_000, now), {
    message: /not a plan/,
  });
  t.equal(parseDuration('90m'), 5_400_000);
  t.throws(() => parseDuration('24'), { name: 'UsageError' });
});
