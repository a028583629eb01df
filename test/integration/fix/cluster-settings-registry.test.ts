/**
 * The lab's cluster settings come from OpenSearch's own registry (scripts/port-cluster-settings.mjs over the sources
 * saved under test/fixtures/opensearch-settings): the committed file is what the generator makes of them, and every
 * setting smdoctor itself writes is registered, and dynamic, in every line the lab emulates.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ALLOCATION_KEY } from '../../../src/model/index.ts';
import { knownSetting } from '../../../lab/src/api/known-settings.ts';

const ROOT = new URL('../../../', import.meta.url);

t.test('the committed registry is what the generator makes of the saved sources', async (t) => {
  const made = execFileSync(process.execPath, ['scripts/port-cluster-settings.mjs', '--stdout'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  t.equal(made, readFileSync(new URL('lab/src/api/cluster-settings.json', ROOT), 'utf8'));
});

// fix (src/fix/allocation.ts) and the Ansible export (src/export/rolling.ts) write this one cluster setting
const WRITTEN = [ALLOCATION_KEY];
const LINES = ['1.3.19', '2.11.1', '2.19.1', '3.1.0'];

t.test('every setting smdoctor writes is registered and dynamic in every line', async (t) => {
  for (const version of LINES)
    for (const key of WRITTEN) t.match(knownSetting(version, key), { key, dynamic: true, final: false }, version);
});

t.test('each line answers from its own registry', async (t) => {
  const cases: Array<[string, string, boolean]> = [
    ['search.keyword_index_or_doc_values_enabled', '3.1.0', true],
    ['search.keyword_index_or_doc_values_enabled', '2.11.1', false],
    ['search_backpressure.mode', '2.11.1', true],
    ['search_backpressure.mode', '1.3.19', false],
    // EnableAssignmentDecider's key; the old hand-written list had it without `cluster.`
    ['cluster.persistent_tasks.allocation.enable', '2.11.1', true],
    ['persistent_tasks.allocation.enable', '2.11.1', false],
    ['cluster.routing.allocation.exclude._name', '1.3.19', true],
    // affix settings (Setting.affixKeySetting): <prefix><namespace>.<suffix>, one namespace segment
    ['cluster.remote.leader.seeds', '2.11.1', true],
    ['cluster.remote.leader-2.skip_unavailable', '3.1.0', true],
    ['cluster.remote.seeds', '2.11.1', false],
    ['cluster.remote.a.b.seeds', '2.11.1', false],
    ['script.context.score.max_compilations_rate', '2.19.1', true],
    ['breaker.custom.limit', '3.1.0', true],
    // read from TransportSettings, HttpTransportSettings, IndicesService, TransportSearchAction
    ['transport.tracer.include', '2.11.1', true],
    ['http.port', '3.1.0', true],
    ['indices.id_field_data.enabled', '2.19.1', true],
    ['search.cancel_after_time_interval', '2.11.1', true],
  ];
  for (const [key, version, known] of cases)
    t.equal(knownSetting(version, key) !== undefined, known, `${key} @ ${version}`);
});

t.test('static registry settings are known but not dynamic; an affix keeps its own properties', async (t) => {
  const cases: Array<[string, boolean]> = [
    ['http.port', false],
    ['cluster.remote.connections_per_cluster', false],
    ['cluster.remote.leader.proxy_address', true],
    ['transport.profiles.client.port', false],
  ];
  for (const [key, dynamic] of cases) t.match(knownSetting('2.19.1', key), { dynamic }, key);
});
