import t from 'tap';
import { IndexStore } from '../../../src/api/store.ts';
import { shardOf } from '../../../src/api/records.ts';
import { expandedReplicas, parseAutoExpand } from '../../../src/api/autoexpand.ts';
import { resolveIndices } from '../../../src/api/patterns.ts';
import { nest, normalizeIndexSettings } from '../../../src/api/tree.ts';
import { inferField, listFields, mergeDynamic, type Mappings } from '../../../src/api/fields.ts';
import { indexHealth } from '../../../src/api/shards.ts';

t.test('auto_expand_replicas parsing and clamping', async (t) => {
  t.same(parseAutoExpand('false'), null);
  t.same(parseAutoExpand('0-all'), { min: 0, max: null });
  t.same(parseAutoExpand('1-2'), { min: 1, max: 2 });
  for (const bad of ['all', '0', '-1', 'a-b', '3-1', '0-', '0-al'])
    t.throws(() => parseAutoExpand(bad), { name: 'ApiFailure', status: 400, type: 'illegal_argument_exception' }, bad);
  const cases: Array<[string, number, number]> = [
    ['0-all', 3, 2],
    ['0-all', 1, 0],
    ['0-all', 0, 0],
    ['0-1', 4, 1],
    ['2-5', 1, 2],
    ['1-all', 6, 5],
  ];
  for (const [v, nodes, want] of cases) t.equal(expandedReplicas(parseAutoExpand(v)!, nodes), want, `${v} on ${nodes}`);
});

t.test('settings forms normalise to index.-prefixed dotted strings', async (t) => {
  const want = { 'index.auto_expand_replicas': '0-all' };
  for (const body of [
    { 'index.auto_expand_replicas': '0-all' },
    { index: { auto_expand_replicas: '0-all' } },
    { auto_expand_replicas: '0-all' },
    { settings: { index: { auto_expand_replicas: '0-all' } } },
  ]) {
    t.same(normalizeIndexSettings(body), want, JSON.stringify(body));
  }
  t.same(normalizeIndexSettings({ number_of_replicas: 2, blocks: { write: true } }), {
    'index.number_of_replicas': '2',
    'index.blocks.write': 'true',
  });
  t.same(nest({ 'index.version.created': '1', 'index.uuid': 'u' }), {
    index: { uuid: 'u', version: { created: '1' } },
  });
});

t.test('index patterns', async (t) => {
  const names = ['.sm_jsc_jobs', '.sm_sme_limits_user', 'logs-1', 'logs-2', 'other'];
  const cases: Array<[string | undefined, string[]]> = [
    ['*', ['logs-1', 'logs-2', 'other']],
    ['_all', ['logs-1', 'logs-2', 'other']],
    [undefined, ['logs-1', 'logs-2', 'other']],
    ['.sm_*', ['.sm_jsc_jobs', '.sm_sme_limits_user']],
    ['logs-*,-logs-2', ['logs-1']],
    ['other,.sm_jsc_jobs', ['.sm_jsc_jobs', 'other']],
    ['nomatch*', []],
  ];
  for (const [p, want] of cases) t.same(resolveIndices(p, names), want, String(p));
  t.same(resolveIndices(undefined, names, { allIncludesHidden: true }), names);
  t.throws(() => resolveIndices('logs-1,missing', names), {
    name: 'ApiFailure',
    status: 404,
    type: 'index_not_found_exception',
    message: 'no such index [missing]',
  });
  t.same(resolveIndices('logs-1,missing', names, { ignoreUnavailable: true }), ['logs-1']);
});

t.test('dynamic mappings', async (t) => {
  t.same(inferField('x'), { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } });
  t.same(inferField(3), { type: 'long' });
  t.same(inferField(0.5), { type: 'float' });
  t.same(inferField(false), { type: 'boolean' });
  t.same(inferField('2024-01-02T03:04:05Z'), { type: 'date' });
  t.same(inferField([null, 7]), { type: 'long' });
  t.equal(inferField(null), null);
  const m: Mappings = { properties: { level: { type: 'keyword' } } };
  t.ok(mergeDynamic(m, { level: 3, author: { id: 'u1' } }));
  t.equal(m.properties!.level.type, 'keyword', 'existing field keeps its type');
  t.notOk(mergeDynamic(m, { level: 'x', author: { id: 'u2' } }), 'nothing new');
  t.ok(mergeDynamic(m, { author: { age: 3 } }));
  t.same(
    listFields(m).map((f) => f.fullName),
    ['level', 'author', 'author.id', 'author.id.keyword', 'author.age'],
  );
});

t.test('store: scenario, allocation, auto-expand, docs, JSON round trip', async (t) => {
  const store = IndexStore.fromScenario([
    {
      name: '.sm_sme_limits_user',
      settings: { 'index.auto_expand_replicas': '0-all' },
      docs: { base_limit: { max_qsize: 200000 } },
    },
    { name: 'two', settings: { index: { number_of_shards: 2, number_of_replicas: 2 } } },
  ]);
  const limits = store.require('.sm_sme_limits_user');
  t.match(limits.settings, {
    'index.refresh_interval': '1s',
    'index.max_result_window': '10000',
    'index.priority': '10000',
    'index.provided_name': '.sm_sme_limits_user',
    'index.creation_date': /^\d+$/,
    'index.uuid': /^\S{22}$/,
  });
  t.equal(indexHealth(limits), 'red', 'nothing allocated before reallocate');

  store.reallocate(['d2', 'd1', 'd3']);
  t.equal(limits.settings['index.number_of_replicas'], '2');
  t.same(limits.copies.map((c) => c.node).sort(), ['d1', 'd2', 'd3'], 'one copy per data node');
  const two = store.require('two');
  for (const s of [0, 1]) {
    const nodes = two.copies.filter((c) => c.shard === s).map((c) => c.node);
    t.equal(new Set(nodes).size, 3, `shard ${s} copies on distinct nodes`);
  }

  store.reallocate(['d1']);
  t.equal(limits.settings['index.number_of_replicas'], '0', 'auto-expand follows the data nodes');
  t.equal(indexHealth(limits), 'green');
  t.equal(
    two.copies.filter((c) => c.state === 'UNASSIGNED').length,
    4,
    'replicas beyond the data nodes are unassigned',
  );
  t.equal(indexHealth(two), 'yellow');

  store.putSettings('two', { index: { auto_expand_replicas: '0-1' } });
  t.equal(two.settings['index.number_of_replicas'], '0');
  t.throws(() => store.putSettings('two', { auto_expand_replicas: 'sometimes' }), {
    name: 'ApiFailure',
    status: 400,
    type: 'illegal_argument_exception',
  });
  t.throws(() => store.putSettings('two', { number_of_shards: 3 }), { name: 'ApiFailure', status: 400 });
  t.throws(() => store.putSettings('nope', { number_of_replicas: 0 }), {
    name: 'ApiFailure',
    status: 404,
    type: 'index_not_found_exception',
  });

  const first = store.putDoc('new-index', 'a', { msg: 'x' });
  t.match(first, { created: true, doc: { version: 1, seqNo: 0 } });
  t.match(store.require('new-index').mappings, { properties: { msg: { type: 'text' } } });
  const second = store.putDoc('new-index', 'a', { msg: 'y' }, { ifSeqNo: 0, ifPrimaryTerm: 1 });
  t.match(second, { created: false, doc: { version: 2, seqNo: 1 } });
  t.throws(() => store.putDoc('new-index', 'a', { msg: 'z' }, { ifSeqNo: 0, ifPrimaryTerm: 1 }), {
    name: 'ApiFailure',
    status: 409,
    type: 'version_conflict_engine_exception',
  });
  t.throws(() => store.putDoc('new-index', 'a', {}, { create: true }), { name: 'ApiFailure', status: 409 });
  t.throws(() => store.putDoc('Bad', 'a', {}), {
    name: 'ApiFailure',
    status: 400,
    type: 'invalid_index_name_exception',
  });
  t.match(store.deleteDoc('new-index', 'a'), { found: true });
  t.match(store.deleteDoc('new-index', 'a'), { found: false });

  let changes = 0;
  store.onChange = () => changes++;
  store.putDoc('two', 'x', { a: 1 });
  t.equal(changes, 1, 'onChange after a write');

  const copy = IndexStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
  t.same(copy.names(), store.names());
  t.same(copy.require('two').copies, two.copies);
  t.same(copy.require('.sm_sme_limits_user').docs.get('base_limit')?.source, { max_qsize: 200000 });
  t.same(copy.dataNodes, ['d1']);
  t.ok(shardOf('x', 2) === 0 || shardOf('x', 2) === 1);
});
