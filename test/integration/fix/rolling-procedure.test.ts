/** The documented rolling restart against the lab's allocator: what it prevents, and that the setting always comes back. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import {
  KEY,
  allocation,
  allocationLog,
  fix,
  health,
  inventoryWith,
  restartOrder,
  rollingLab,
} from '../../helpers/fix/rolling.ts';

// one lab: the failed restart comes first, as it restarts no node (n2 is the first) and its transient value is undone
const { lab, api } = await rollingLab(t);

t.test(
  'a failed restart: transient and persistent are back exactly, the report says how the cluster was left',
  async (t) => {
    await api.request({ method: 'PUT', path: '/_cluster/settings', body: { transient: { [KEY]: 'all' } } });
    t.teardown(() => api.request({ method: 'PUT', path: '/_cluster/settings', body: { transient: { [KEY]: null } } }));
    const r = await fix(await inventoryWith(lab, 'n2', 'false'), lab.dir, '--timeout', '60');
    t.equal(r.code, 3);
    const a = r.report.clusters[0]!.checks.flatMap((k) => k.actions).find(
      (x) => x.host === 'n2' && x.type === 'restart-service',
    )!;
    t.match(a, {
      status: 'failed',
      error:
        /^exit 1.*allocation restored \(persistent unset, transient all, as read back\); cluster left \w+ with \d+ unassigned/,
    });
    t.same(await allocation(api), { persistent: null, transient: 'all' });
  },
);

t.test('with the procedure: no relocation, the elected manager last, allocation back as it was, green', async (t) => {
  await api.request({ method: 'PUT', path: '/_cluster/settings', body: { persistent: { [KEY]: 'all' } } });
  const r = await fix(lab.inventoryPath, lab.dir, '--timeout', '60');
  t.equal(r.code, 0, r.err);
  t.same(restartOrder(r.err), ['n2', 'n3', 'n1'], 'n1, the elected manager, restarts last');
  const log = await allocationLog(lab);
  t.match(log, /recover \[logs-2024\.01\]/, 'nodes were away and their copies recovered');
  t.notMatch(log, /relocate/, 'no copy was relocated');
  t.same(await allocation(api), { persistent: 'all', transient: null }, 'restored exactly');
  t.equal((await health(api)).status, 'green');
  t.match(r.err, /n2: allocation → primaries/, 'progress names the node and the phase');
});
