/**
 * `PUT _cluster/settings` refuses a key OpenSearch does not know, as AbstractScopedSettings.updateSettings does
 * ("persistent setting [k], not recognized", 400 illegal_argument_exception), before changing anything.
 */
import t from 'tap';
import { startLab, call } from '../../helpers/api-fixture.ts';

const lab = await startLab(t);
const put = (body: unknown) => call(lab, { method: 'PUT', path: '/_cluster/settings', body });
const get = async () =>
  (await call(lab, { method: 'GET', path: '/_cluster/settings', querystring: { flat_settings: true } })).body;

const refusedWith = (reason: string) => ({
  statusCode: 400,
  body: {
    error: { root_cause: [{ type: 'illegal_argument_exception', reason }], type: 'illegal_argument_exception', reason },
    status: 400,
  },
});
const refused = (scope: string, key: string) => refusedWith(`${scope} setting [${key}], not recognized`);

t.test('an unknown key is refused, and the valid key beside it is not applied', async (t) => {
  const before = await get();
  const r = await put({
    persistent: { 'cluster.routing.allocation.enable': 'primaries', 'cluster.routing.allocation.enabled': 'all' },
  });
  t.match(r, refused('persistent', 'cluster.routing.allocation.enabled'));
  const t2 = await put({ transient: { 'cluster.routing.alocation.enable': 'none' } });
  t.match(t2, refused('transient', 'cluster.routing.alocation.enable'));
  t.strictSame(await get(), before, 'nothing changed');
});

t.test('a reset of an unknown key is refused too; a wildcard reset is taken', async (t) => {
  t.match(await put({ persistent: { 'no.such.setting': null } }), refused('persistent', 'no.such.setting'));
  t.equal((await put({ persistent: { 'cluster.routing.allocation.*': null } })).statusCode, 200);
});

t.test('known keys and group settings are taken', async (t) => {
  const r = await put({
    persistent: { 'cluster.routing.allocation.exclude._ip': '10.0.0.9', 'cluster.max_shards_per_node': '2000' },
    transient: { 'cluster.routing.allocation.enable': 'primaries' },
  });
  t.equal(r.statusCode, 200, JSON.stringify(r.body));
  t.match(await get(), {
    persistent: { 'cluster.routing.allocation.exclude._ip': '10.0.0.9', 'cluster.max_shards_per_node': '2000' },
    transient: { 'cluster.routing.allocation.enable': 'primaries' },
  });
  t.equal((await put({ transient: { 'cluster.routing.allocation.enable': null } })).statusCode, 200);
});

t.test(
  'search backpressure: known from 2.4 (the 1.3 line has none), its mode checked as SearchBackpressureMode',
  async (t) => {
    const view = lab.view as { version?: string };
    t.equal((await put({ transient: { 'search_backpressure.mode': 'enforced' } })).statusCode, 200);
    t.match(await put({ transient: { 'search_backpressure.mode': 'on' } }), {
      statusCode: 400,
      body: { error: { type: 'illegal_argument_exception', reason: 'Invalid SearchBackpressureMode: on' } },
    });
    view.version = '1.3.19';
    t.teardown(() => delete view.version);
    t.match(
      await put({ transient: { 'search_backpressure.mode': 'enforced' } }),
      refused('transient', 'search_backpressure.mode'),
    );
    t.equal((await put({ transient: { 'search_backpressure.mode': null } })).statusCode, 400, 'nor reset there');
  },
);

t.test(
  'the engine registry decides: its keys are taken, a static one is refused as not dynamically updateable',
  async (t) => {
    const taken: Record<string, string> = {
      'cluster.routing.allocation.awareness.force.zone.values': 'a,b',
      'cluster.routing.allocation.node_initial_replicas_recoveries': '3',
      'cluster.blocks.create_index.auto_release': 'false',
      'search_backpressure.node_duress.heap_threshold': '0.8',
    };
    for (const [key, value] of Object.entries(taken)) {
      t.equal((await put({ transient: { [key]: value } })).statusCode, 200, key);
      t.equal((await put({ transient: { [key]: null } })).statusCode, 200, `${key} reset`);
    }
    t.match(
      await put({ persistent: { 'logger.level': 'DEBUG' } }),
      refusedWith('persistent setting [logger.level], not dynamically updateable'),
    );
    t.match(
      await put({ transient: { 'logger.level': null } }),
      refusedWith('transient setting [logger.level], not dynamically updateable'),
      'nor reset',
    );
    t.equal((await put({ transient: { 'logger.org.opensearch.cluster': 'DEBUG' } })).statusCode, 200, 'logger.<name>');
    t.equal((await put({ transient: { 'logger.org.opensearch.cluster': null } })).statusCode, 200);
    // defined by SearchBackpressureSettings but not registered in ClusterSettings
    t.match(
      await put({ persistent: { 'search_backpressure.interval_millis': '500' } }),
      refused('persistent', 'search_backpressure.interval_millis'),
    );
  },
);
