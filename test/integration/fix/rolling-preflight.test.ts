/** The documented rolling restart against the lab's allocator: what it prevents, and that the setting always comes back. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { readFile } from 'node:fs/promises';
import { allocation, allocationLog, fix, health, restartOrder, rollingLab } from '../../helpers/fix/rolling.ts';

t.test('the pre-flight refuses a red cluster, and a yellow one without --allow-yellow', async (t) => {
  const { lab, api } = await rollingLab(t);
  const n1 = lab.nodes.find((n) => n.name === 'n1')!;
  const file = `${n1.searchHome}/config/opensearch.yml`;
  const before = await readFile(file, 'utf8');
  await api.request({
    method: 'PUT',
    path: '/nowhere',
    body: { settings: { 'index.routing.allocation.require._name': 'none-such', 'index.number_of_replicas': '0' } },
  });
  const red = await fix(lab.inventoryPath, lab.dir, '--timeout', '60');
  t.equal(red.code, 3);
  t.match(red.err, /pre-flight: health is red/);
  t.equal(await readFile(file, 'utf8'), before, 'nothing changed');
  t.same(await allocation(api), { persistent: null, transient: null });
  await api.request({ method: 'DELETE', path: '/nowhere' });

  await api.request({ method: 'PUT', path: '/wide', body: { settings: { 'index.number_of_replicas': '4' } } });
  t.equal((await health(api)).status, 'yellow');
  const yellow = await fix(lab.inventoryPath, lab.dir, '--timeout', '60');
  t.equal(yellow.code, 3);
  t.match(yellow.err, /pre-flight: health is yellow, not green.*--allow-yellow/);
  t.equal(await readFile(file, 'utf8'), before, 'nothing changed');

  const allowed = await fix(lab.inventoryPath, lab.dir, '--timeout', '60', '--allow-yellow');
  t.equal(allowed.code, 0, allowed.err);
  t.same(restartOrder(allowed.err), ['n2', 'n3', 'n1']);
  t.notMatch(await allocationLog(lab), /relocate/);
});
