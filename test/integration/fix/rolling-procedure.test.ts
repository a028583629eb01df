/** The documented rolling restart against the lab's allocator: what it prevents, and that the setting always comes back. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { KEY, allocation, allocationLog, fix, health, restartOrder, rollingLab } from '../../helpers/fix/rolling.ts';

t.test('with the procedure: no relocation, the elected manager last, allocation back as it was, green', async (t) => {
  const { lab, api } = await rollingLab(t);
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
