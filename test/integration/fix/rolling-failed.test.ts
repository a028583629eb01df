/** The documented rolling restart against the lab's allocator: what it prevents, and that the setting always comes back. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { KEY, allocation, fix, inventoryWith, rollingLab } from '../../helpers/fix/rolling.ts';

t.test(
  'a failed restart: transient and persistent are back exactly, the report says how the cluster was left',
  async (t) => {
    const { lab, api } = await rollingLab(t);
    await api.request({ method: 'PUT', path: '/_cluster/settings', body: { transient: { [KEY]: 'all' } } });
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
