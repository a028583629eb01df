/**
 * Assertions of OpenSearch's YAML REST tests (opensearch-project/OpenSearch,
 * rest-api-spec/src/main/resources/rest-api-spec/test/, Apache-2.0), ported as they are written; each test names its
 * source file and commit. Their regexes are Java COMMENTS-mode patterns: `extended` reads them the same way.
 */
import t from 'tap';
import { startLab, call, type Req } from '../../helpers/api-fixture.ts';

/**
 * A Java `Pattern.COMMENTS` regex in JS: unescaped whitespace and `#…` comments dropped; possessive `*+` as `*`;
 * the repeated name group `(\S+\s?)+` kept within its line, or V8 backtracks through every later row.
 */
export function extended(src: string): RegExp {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') out += src[i] + (src[++i] ?? '');
    else if (c === '#') while (i < src.length && src[i] !== '\n') i++;
    else if (!/\s/.test(c)) out += c;
  }
  return new RegExp(out.replaceAll('*+', '*').replaceAll(String.raw`(\S+\s?)+`, String.raw`(\S+[^\S\n]?)+`));
}

const lab = await startLab(t, []);
const req = (method: string, path: string, querystring: Record<string, unknown> = {}, body?: unknown) =>
  call(lab, { method, path, querystring, ...(body === undefined ? {} : { body }) } as Req);
const text = async (path: string, querystring: Record<string, unknown> = {}) => {
  const r = await req('GET', path, querystring);
  t.equal(r.statusCode, 200, `${path} ${JSON.stringify(querystring)}`);
  return String(r.body);
};

t.test('delete/20_cas.yml @ bf7aedd3317d001f4fffeda1d050493527776ae4: Internal version', async (t) => {
  t.match(await req('PUT', '/test_1/_doc/1', {}, { foo: 'bar' }), { body: { _seq_no: 0 } });
  t.match(await req('DELETE', '/test_1/_doc/1', { if_seq_no: 2, if_primary_term: 1 }), {
    statusCode: 409,
    body: { error: { type: 'version_conflict_engine_exception' } },
  });
  t.match(await req('DELETE', '/test_1/_doc/1', { if_seq_no: 0, if_primary_term: 1 }), {
    statusCode: 200,
    body: { _seq_no: 1 },
  });
  await req('DELETE', '/test_1');
});

t.test('cat.nodes/10_basic.yml @ 4cb8dac9361b7753b4a6508a768a7eff11bf61bb: Test cat nodes output', async (t) => {
  const NUM = String.raw`((-)?\d*(\.\d+)?)?`;
  t.match(
    await text('/_cat/nodes'),
    extended(String.raw`
      #ip heap.percent ram.percent cpu load_1m load_5m load_15m node.role node.roles cluster_manager name
      ^  ((\d{1,3}\.){3}\d{1,3}  \s+  \d+  \s+  \d*  \s+ (-)?\d* \s+ ${NUM} \s+ ${NUM} \s+ ${NUM} \s+ (-|[cdhilmrstvw]{1,11}) \s+ (-|\w+(,\w+)*+) \s+ [-*x]  \s+  (\S+\s?)+  \n)+  $`),
  );
  t.match(
    await text('/_cat/nodes', { v: true }),
    extended(String.raw`^  ip  \s+  heap\.percent  \s+  ram\.percent \s+ cpu  \s+ load_1m  \s+ load_5m  \s+ load_15m  \s+ node\.role  \s+ node\.roles  \s+  cluster_manager  \s+  name  \n
      ((\d{1,3}\.){3}\d{1,3}  \s+  \d+  \s+  \d*  \s+ (-)?\d* \s+ ${NUM} \s+ ${NUM} \s+ ${NUM} \s+ (-|[cdhilmrstvw]{1,11}) \s+ (-|\w+(,\w+)*+ ) \s+ [-*x]  \s+  (\S+\s?)+  \n)+  $`),
  );
  const heap = extended(String.raw`^ heap\.current \s+ heap\.percent \s+ heap\.max \n
    (\s+ \d+(\.\d+)?[ptgmk]?b \s+ \d+ \s+ \d+(\.\d+)?[ptgmk]?b \n)+ $`);
  t.match(await text('/_cat/nodes', { h: 'heap.current,heap.percent,heap.max', v: true }), heap);
  t.match(await text('/_cat/nodes', { h: 'heap.*', v: true }), heap);
  t.match(
    await text('/_cat/nodes', { h: 'file_desc.current,file_desc.percent,file_desc.max', v: true }),
    extended(String.raw`^ file_desc\.current \s+ file_desc\.percent \s+ file_desc\.max \n
      (\s+ (-1|\d+) \s+ \d+ \s+ (-1|\d+) \n)+ $`),
  );
  t.match(
    await text('/_cat/nodes', { h: 'http', v: true }),
    extended(String.raw`^ http \n ((\d{1,3}\.){3}\d{1,3}:\d{1,5}\n)+ $`),
  );
});

t.test('cat.nodes/10_basic.yml: Additional disk information', async (t) => {
  const disk = (h: string) =>
    extended(String.raw`^ \s* ${h} \n
      (\s* \d+(\.\d+)?[ptgmk]?b \s+ \d+(\.\d+)?[ptgmk]?b \s+ \d+(\.\d+)?[ptgmk]?b\s+ (100\.00 | \d{1,2}\.\d{2}) \n)+ $`);
  t.match(
    await text('/_cat/nodes', { h: 'diskAvail,diskTotal,diskUsed,diskUsedPercent', v: true }),
    disk(String.raw`diskAvail \s+ diskTotal \s+ diskUsed \s+ diskUsedPercent`),
  );
  t.match(await text('/_cat/nodes', { h: 'disk,dt,du,dup', v: true }), disk(String.raw`disk \s+ dt \s+ du \s+ dup`));
});

t.test('cat.nodes/10_basic.yml: Test cat nodes output with full_id set', async (t) => {
  t.match(await text('/_cat/nodes', { h: 'id' }), /^(\S{4}\n)+$/);
  t.match(await text('/_cat/nodes', { h: 'id', full_id: true }), /^(\S{5,}\n)+$/);
});

t.test('cat.shards/10_basic.yml @ 078cded378bfe5d65d9dfffe651608119d7e8bc8: Test cat shards output', async (t) => {
  t.match(await text('/_cat/shards'), /^$/);
  await req('PUT', '/index1', {}, { settings: { number_of_shards: '5', number_of_replicas: '1' } });
  const row = (name: string) =>
    String.raw`(${name} \s+ \d \s+ (p|r) \s+ ((STARTED|INITIALIZING|RELOCATING) \s+ (\d \s+ (\d+|\d+[.]\d+)(kb|b) \s+)? \d{1,3}.\d{1,3}.\d{1,3}.\d{1,3} \s+ .+|UNASSIGNED \s+) \n?)`;
  t.match(await text('/_cat/shards'), extended(`^${row('index1')}{10}$`));
  await req('PUT', '/index2', {}, { settings: { number_of_shards: '5', number_of_replicas: '0' } });
  t.match(await text('/_cat/shards'), extended(`^${row('index(1|2)')}{15}$`));
  t.match(await text('/_cat/shards/index2'), extended(`^${row('index2')}{5}$`));
  await req('DELETE', '/index1,index2');
});

t.test('cat.shards/10_basic.yml: Test cat shards using wildcards, sort', async (t) => {
  for (const i of ['foo', 'bar', 'baz'])
    await req('PUT', `/${i}`, {}, { settings: { number_of_shards: '1', number_of_replicas: '0' } });
  t.match(await text('/_cat/shards/f*', { v: false, h: 'i' }), extended(String.raw`^(foo \n?)$`));
  t.match(await text('/_cat/shards/ba*', { v: false, h: 'i' }), extended(String.raw`^(ba(r|z) \n?){2}$`));
  await req('DELETE', '/baz');
  await req('POST', '/bar/_doc', { refresh: true }, { test: 'bar' });
  t.match(
    await text('/_cat/shards', { h: 'index,docs', s: 'docs' }),
    extended(String.raw`^ foo \s+ 0\n
      bar \s+ 1\n
    $`),
  );
});

// cluster.put_settings/10_basic.yml, as written; its "Test get a default settings" reads node.attr.testattr, an
// attribute of the REST test cluster's own nodes (not a lab node's), and "invalid cancellation_rate and
// cancellation_ratio" (3.0+) matches messages the stored versions of the settings classes do not agree on: both left out
const PUT_SETTINGS = 'cluster.put_settings/10_basic.yml @ 16d728ba006cfa7244bac49b74a01c535815e599';
const putSettings = (body: unknown, querystring: Record<string, unknown> = {}) =>
  req('PUT', '/_cluster/settings', querystring, body);
const getSettings = (querystring: Record<string, unknown>) => req('GET', '/_cluster/settings', querystring);

for (const scope of ['transient', 'persistent'] as const)
  t.test(`${PUT_SETTINGS}: Test put and reset ${scope} settings`, async (t) => {
    const flat = { flat_settings: true };
    t.match(await putSettings({ [scope]: { 'cluster.routing.allocation.enable': 'none' } }, flat), {
      body: { [scope]: { 'cluster.routing.allocation.enable': 'none' } },
    });
    t.match(await getSettings(flat), { body: { [scope]: { 'cluster.routing.allocation.enable': 'none' } } });
    t.match(await putSettings({ [scope]: { 'cluster.routing.allocation.enable': null } }, flat), {
      body: { [scope]: {} },
    });
    t.same((await getSettings(flat)).body[scope], {});
  });

t.test(`${PUT_SETTINGS}: Test set search backpressure mode`, async (t) => {
  t.match(await putSettings({ persistent: { 'search_backpressure.mode': 'monitor_only' } }), {
    statusCode: 200,
    body: { persistent: { search_backpressure: { mode: 'monitor_only' } } },
  });
});

t.test(`${PUT_SETTINGS}: Test set invalid search backpressure mode`, async (t) => {
  const r = await putSettings({ persistent: { 'search_backpressure.mode': 'monitor-only' } });
  t.match(r, {
    statusCode: 400,
    body: {
      error: {
        root_cause: [{ type: 'illegal_argument_exception', reason: 'Invalid SearchBackpressureMode: monitor-only' }],
      },
      status: 400,
    },
  });
});

t.test(`${PUT_SETTINGS}: Test setting search backpressure cancellation settings`, async (t) => {
  const cases: Array<[string, number, string]> = [
    ['search_task', 11, 'cancellation_burst'],
    ['search_task', 0.1, 'cancellation_rate'],
    ['search_task', 0.2, 'cancellation_ratio'],
    ['search_shard_task', 12, 'cancellation_burst'],
    ['search_shard_task', 0.3, 'cancellation_rate'],
    ['search_shard_task', 0.4, 'cancellation_ratio'],
  ];
  for (const [task, value, key] of cases) {
    t.match(await putSettings({ transient: { [`search_backpressure.${task}.${key}`]: value } }), {
      body: { acknowledged: true },
    });
    t.match(await getSettings({ flat_settings: false }), {
      body: { transient: { search_backpressure: { [task]: { [key]: String(value) } } } },
    });
  }
});
