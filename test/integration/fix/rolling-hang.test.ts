/** The documented rolling restart against the lab's allocator: what it prevents, and that the setting always comes back. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { allocation, fix, inventoryWith, rollingLab } from '../../helpers/fix/rolling.ts';

t.test('a restart that hangs past the deadline: allocation restored', async (t) => {
  const { lab, api } = await rollingLab(t);
  // the restart outlives its deadline (5 × 12 s); 12 s also leaves the audit's reads room on a busy machine
  const r = await fix(await inventoryWith(lab, 'n2', 'sleep 90'), lab.dir, '--timeout', '12');
  t.equal(r.code, 3);
  const a = r.report.clusters[0]!.checks.flatMap((k) => k.actions).find(
    (x) => x.host === 'n2' && x.type === 'restart-service',
  );
  if (!a) return t.fail(`the plan has no restart of n2: ${r.err}`);
  t.match(a.error, /no complete answer within|deadline|timed out|did not/);
  t.match(a.error, /allocation restored/);
  t.same(await allocation(api), { persistent: null, transient: null });
});
