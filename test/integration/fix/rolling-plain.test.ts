/** The documented rolling restart against the lab's allocator: what it prevents, and that the setting always comes back. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { allocationLog, fixWith, rollingLab } from '../../helpers/fix/rolling.ts';
import { plainRestart } from '../../helpers/plain-restart.ts';

t.test('without the procedure (the 0.1 restart) the lab relocates replicas', async (t) => {
  const { lab } = await rollingLab(t);
  await fixWith({ steps: { 'restart-service': plainRestart } }, lab.inventoryPath, lab.dir, '--timeout', '60');
  t.match(await allocationLog(lab), /relocate \[logs-2024\.01\]\[\d\] replica of n\d/);
});
