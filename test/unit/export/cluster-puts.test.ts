/** A pack's put_cluster_setting as the play compares it: the API's strings, resets apart, the plan's puts as one. */
import t from 'tap';
import { allClusterPuts, clusterPut } from '../../../src/export/cluster-puts.ts';
import type { PlanStep } from '../../../src/export/steps.ts';

const put = (n: number, persistent: Record<string, unknown>): PlanStep =>
  ({
    n,
    check: 'acme/x',
    action: {
      type: 'put-settings',
      method: 'PUT',
      api_path: '/_cluster/settings',
      body: { persistent },
      status: 'planned',
    },
  }) as unknown as PlanStep;

t.test('values as GET _cluster/settings?flat_settings=true answers them', async (t) => {
  t.same(clusterPut({ persistent: { 'a.b': true, 'c.d': 5, e: 'x', f: null, g: { h: 0.5 } } }), {
    set: { 'a.b': 'true', 'c.d': '5', e: 'x', 'g.h': '0.5' },
    unset: ['f'],
  });
  t.same(clusterPut(null), { set: {}, unset: [] }, 'no body: nothing');
});

t.test('every put of the plan as one, a later one winning', async (t) => {
  const all = allClusterPuts([put(1, { a: 1, b: null }), put(2, { a: null, b: 'y' })]);
  t.same(all, { set: { b: 'y' }, unset: ['a'] });
});
