/** The documented rolling restart against the lab's allocator: what it prevents, and that the setting always comes back. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { applyPlan } from '../../../src/fix/run.ts';
import { allocation, fixWith, inventoryWith, rollingLab } from '../../helpers/fix/rolling.ts';

t.test('a restart that hangs past the deadline: allocation restored', async (t) => {
  const { lab, api } = await rollingLab(t);
  // the restart outlives its deadline (5 × the steps' 6 s); the audit keeps 12 s for its reads on a busy machine
  const steps = { apply: (plan, o) => applyPlan(plan, { ...o, timeout: 6 }) } satisfies Parameters<typeof fixWith>[0];
  const r = await fixWith(steps, await inventoryWith(lab, 'n2', 'sleep 90'), lab.dir, '--timeout', '12');
  t.equal(r.code, 3);
  const a = r.report.clusters[0]!.checks.flatMap((k) => k.actions).find(
    (x) => x.host === 'n2' && x.type === 'restart-service',
  );
  if (!a) return t.fail(`the plan has no restart of n2: ${r.err}`);
  t.match(a.error, /no complete answer within|deadline|timed out|did not/);
  t.match(a.error, /allocation restored/);
  t.same(await allocation(api), { persistent: null, transient: null });
});
