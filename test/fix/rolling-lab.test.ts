/** The documented rolling restart against the lab's allocator: what it prevents, and that the setting always comes back. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { PLAIN_RESTART_SWITCH } from '../../src/fix/restart.ts';
import { KEY, allocation, allocationLog, fix, health, inventoryWith, restartOrder, rollingLab } from './rolling-helpers.ts';

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

t.test('without the procedure (the 0.1 restart) the lab relocates replicas', async (t) => {
  const { lab } = await rollingLab(t);
  process.env[PLAIN_RESTART_SWITCH] = '1';
  t.teardown(() => { delete process.env[PLAIN_RESTART_SWITCH]; });
  await fix(lab.inventoryPath, lab.dir, '--timeout', '60');
  t.match(await allocationLog(lab), /relocate \[logs-2024\.01\]\[\d\] replica of n\d/);
});

t.test('a failed restart: transient and persistent are back exactly, the report says how the cluster was left', async (t) => {
  const { lab, api } = await rollingLab(t);
  await api.request({ method: 'PUT', path: '/_cluster/settings', body: { transient: { [KEY]: 'all' } } });
  const r = await fix(await inventoryWith(lab, 'n2', 'false'), lab.dir, '--timeout', '60');
  t.equal(r.code, 3);
  const a = r.report.clusters[0]!.checks.flatMap((k) => k.actions).find((x) => x.host === 'n2' && x.type === 'restart-service')!;
  t.match(a, { status: 'failed', error: /^exit 1.*allocation restored \(persistent unset, transient all\); cluster left \w+ with \d+ unassigned/ });
  t.same(await allocation(api), { persistent: null, transient: 'all' });
});

t.test('a restart that hangs past the deadline: allocation restored', async (t) => {
  const { lab, api } = await rollingLab(t);
  const r = await fix(await inventoryWith(lab, 'n2', 'sleep 60'), lab.dir, '--timeout', '2');
  t.equal(r.code, 3);
  const a = r.report.clusters[0]!.checks.flatMap((k) => k.actions).find((x) => x.host === 'n2' && x.type === 'restart-service')!;
  t.match(a.error, /deadline|timed out|did not/);
  t.match(a.error, /allocation restored/);
  t.same(await allocation(api), { persistent: null, transient: null });
});

t.test('the pre-flight refuses a red cluster, and a yellow one without --allow-yellow', async (t) => {
  const { lab, api } = await rollingLab(t);
  const n1 = lab.nodes.find((n) => n.name === 'n1')!;
  const file = `${n1.searchHome}/config/opensearch.yml`;
  const before = await readFile(file, 'utf8');
  await api.request({ method: 'PUT', path: '/nowhere', body: { settings: { 'index.routing.allocation.require._name': 'none-such', 'index.number_of_replicas': '0' } } });
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
