/** The documented rolling restart against the lab's allocator: what it prevents, and that the setting always comes back. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { allocation, fix, inventoryWith, rollingLab } from './rolling-helpers.ts';

t.test('a restart that hangs past the deadline: allocation restored', async (t) => {
  const { lab, api } = await rollingLab(t);
  const r = await fix(await inventoryWith(lab, 'n2', 'sleep 60'), lab.dir, '--timeout', '6');
  t.equal(r.code, 3);
  const a = r.report.clusters[0]!.checks.flatMap((k) => k.actions).find(
    (x) => x.host === 'n2' && x.type === 'restart-service',
  )!;
  t.match(a.error, /deadline|timed out|did not/);
  t.match(a.error, /allocation restored/);
  t.same(await allocation(api), { persistent: null, transient: null });
});
