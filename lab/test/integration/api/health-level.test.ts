/**
 * `_cluster/health?level=indices|shards`, checked against the specification's schema and ported from OpenSearch's
 * REST test "cluster health levels" (rest-api-spec/src/main/resources/rest-api-spec/test/cluster.health/10_basic.yml,
 * opensearch-project/OpenSearch at 237b29e5bdde89eb18ee95e4a663862517613272, Apache-2.0).
 */
import t from 'tap';
import { startLab, call, type Req } from '../../helpers/api-fixture.ts';
import { specErrors } from '../../../../test/helpers/opensearch-spec.ts';

const lab = await startLab(t, [
  { name: 'two', settings: { number_of_shards: 2, number_of_replicas: 1 } },
  // more replicas than data nodes: some copies stay unassigned, so the index and its shards are yellow
  { name: 'wide', settings: { number_of_shards: 1, number_of_replicas: 5 } },
]);
const health = async (querystring: Record<string, string>) => {
  const r = await call(lab, { method: 'GET', path: '/_cluster/health', querystring } as Req);
  t.equal(r.statusCode, 200);
  t.strictSame(specErrors('cluster.health@200', r.body), [], `level=${querystring.level} is as the spec says`);
  return r.body as Record<string, any>;
};

t.test('cluster health levels (10_basic.yml)', async (t) => {
  const indices = await health({ level: 'indices' });
  t.ok(indices.indices, 'is_true: indices');
  t.notOk(indices.indices.two.shards, 'is_false: indices.two.shards');
  const shards = await health({ level: 'shards' });
  t.ok(shards.indices, 'is_true: indices');
  t.ok(shards.indices.two.shards, 'is_true: indices.two.shards');
});

t.test('the default and an unknown level are the cluster level, as OpenSearch writes it', async (t) => {
  t.notOk('indices' in (await health({})));
  t.notOk('indices' in (await health({ level: 'cluster' })));
  t.notOk('indices' in (await health({ level: 'nodes' })));
});

t.test('each shard counts its own copies, and the counts add up to the index', async (t) => {
  const body = await health({ level: 'shards' });
  const two = body.indices.two;
  t.same(Object.keys(two.shards), ['0', '1']);
  for (const s of Object.values(two.shards) as any[])
    t.strictSame(s, {
      status: 'green',
      primary_active: true,
      active_shards: 2,
      relocating_shards: 0,
      initializing_shards: 0,
      unassigned_shards: 0,
    });
  const wide = body.indices.wide;
  t.equal(wide.status, 'yellow');
  t.match(wide.shards['0'], { status: 'yellow', primary_active: true });
  t.equal(wide.shards['0'].active_shards + wide.shards['0'].unassigned_shards, 6, 'a primary and five replicas');
  for (const i of [two, wide]) {
    const copies = Object.values(i.shards) as any[];
    const sum = (k: string) => copies.reduce((n, s) => n + s[k], 0);
    t.equal(sum('active_shards'), i.active_shards);
    t.equal(sum('unassigned_shards'), i.unassigned_shards);
    t.equal(copies.filter((s) => s.primary_active).length, i.active_primary_shards);
  }
});
