/** OpenSearch's index settings, cluster health, documents and errors, as the lab answers them, through the official client. */
import t from 'tap';
import { Client, errors } from '@opensearch-project/opensearch';
import { startLab, call, AUTH, type Req } from '../../helpers/api-fixture.ts';
import { parseWaitForNodes } from '../../../src/api/health.ts';

const lab = await startLab(t);
const req = (method: string, path: string, body?: unknown, querystring: Record<string, unknown> = {}) =>
  call(lab, { method, path, querystring, ...(body === undefined ? {} : { body }) } as Req);

function leaves(x: unknown, path = ''): Array<[string, unknown]> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return [[path, x]];
  return Object.entries(x).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
}

t.test('GET _settings: every leaf a string, nested or flat', async (t) => {
  const nested = await req('GET', '/logs,.sm_*/_settings');
  const flat = await req('GET', '/logs,.sm_*/_settings', undefined, { flat_settings: true });
  t.same(Object.keys(nested.body).sort(), ['.sm_jsc_jobs', '.sm_sme_limits_user', 'logs']);
  for (const index of Object.keys(nested.body)) {
    t.same(Object.keys(nested.body[index]), ['settings'], `${index}: {settings}`);
    t.same(Object.keys(nested.body[index].settings), ['index'], `${index}: {settings:{index}}`);
    const l = leaves(nested.body[index].settings);
    for (const [k, v] of l) t.type(v, 'string', `${index} ${k}`);
    t.same(Object.fromEntries(l), flat.body[index].settings, `${index}: flat_settings gives the same dotted keys`);
  }
  t.match(nested.body['.sm_sme_limits_user'].settings.index, {
    number_of_shards: '1',
    auto_expand_replicas: '0-all',
    version: { created: /^\d+$/ },
  });
  t.equal(nested.body.logs.settings.index.auto_expand_replicas, 'false', 'the default is "false"');
});

t.test('PUT _settings: the four forms, JSON scalars stored as strings, bad values 400', async (t) => {
  t.teardown(() => lab.store.putSettings('logs', { index: { auto_expand_replicas: 'false', number_of_replicas: 1 } }));
  const good: Array<[unknown, string]> = [
    [{ 'index.auto_expand_replicas': '0-all' }, '0-all'],
    [{ index: { auto_expand_replicas: '0-1' } }, '0-1'],
    [{ auto_expand_replicas: '1-all' }, '1-all'],
    [{ settings: { 'index.auto_expand_replicas': '0-5' } }, '0-5'],
    [{ index: { auto_expand_replicas: false } }, 'false'],
  ];
  for (const [body, want] of good) {
    const r = await req('PUT', '/logs/_settings', body);
    t.same([r.statusCode, r.body], [200, { acknowledged: true }], JSON.stringify(body));
    t.equal((await req('GET', '/logs/_settings')).body.logs.settings.index.auto_expand_replicas, want);
  }
  for (const bad of ['sometimes', '0-', '-1', 'all', '2-1', '0-all-x', 'a-b', 'true']) {
    const r = await req('PUT', '/logs/_settings', { index: { auto_expand_replicas: bad } });
    t.match(
      r,
      {
        statusCode: 400,
        body: {
          error: { root_cause: [{ type: 'illegal_argument_exception' }], type: 'illegal_argument_exception' },
          status: 400,
        },
      },
      bad,
    );
  }
});

t.test('auto_expand_replicas: replicas = clamp(data nodes - 1, min, max), 0-all on every data node', async (t) => {
  t.teardown(() => lab.store.putSettings('logs', { index: { auto_expand_replicas: 'false', number_of_replicas: 1 } }));
  const cases: Array<[string, string]> = [
    ['0-all', '1'],
    ['0-0', '0'],
    ['2-3', '2'],
    ['1-all', '1'],
    ['0-5', '1'],
  ];
  for (const [ae, replicas] of cases) {
    await req('PUT', '/logs/_settings', { 'index.auto_expand_replicas': ae });
    t.equal(
      (await req('GET', '/logs/_settings')).body.logs.settings.index.number_of_replicas,
      replicas,
      `${ae} over 2 data nodes`,
    );
  }
  await req('PUT', '/logs/_settings', { 'index.auto_expand_replicas': '0-all' });
  const shards = await req('GET', '/_cat/shards/logs', undefined, { format: 'json' });
  t.same(shards.body.map((r: any) => `${r.node} ${r.state}`).sort(), ['data-1 STARTED', 'data-2 STARTED']);
});

t.test('cluster health: a better status satisfies a worse wait, an unmet wait is 408 with timed_out', async (t) => {
  const cases: Array<[string, string, number]> = [
    ['green', 'green', 200],
    ['green', 'yellow', 200],
    ['green', 'red', 200],
    ['yellow', 'green', 408],
    ['yellow', 'yellow', 200],
    ['yellow', 'red', 200],
  ];
  t.teardown(() => lab.store.putSettings('logs', { number_of_replicas: 1 }));
  for (const [now, want, status] of cases) {
    lab.store.putSettings('logs', { number_of_replicas: now === 'green' ? 1 : 2 });
    const plain = await req('GET', '/_cluster/health');
    const r = await req('GET', '/_cluster/health', undefined, { wait_for_status: want, timeout: '100ms' });
    t.equal(r.statusCode, status, `${now} waiting for ${want}`);
    t.same(r.body, { ...plain.body, timed_out: status === 408 }, `${now} waiting for ${want}: same body`);
  }
  t.match(await req('GET', '/_cluster/health', undefined, { wait_for_nodes: '>=9', timeout: '100ms' }), {
    statusCode: 408,
    body: { timed_out: true, number_of_nodes: 5 },
  });
});

t.test('wait_for_nodes forms', async (t) => {
  const cases: Array<[string, number, boolean]> = [
    ['5', 5, true],
    ['5', 4, false],
    ['>=5', 5, true],
    ['>=5', 4, false],
    ['ge(5)', 6, true],
    ['ge(5)', 4, false],
    ['<=5', 5, true],
    ['le(5)', 6, false],
    ['>5', 5, false],
    ['gt(5)', 6, true],
    ['<5', 4, true],
    ['lt(5)', 5, false],
  ];
  for (const [spec, n, ok] of cases) t.equal(parseWaitForNodes(spec)(n), ok, `${spec} with ${n}`);
  t.match(await req('GET', '/_cluster/health', undefined, { wait_for_nodes: 'many' }), {
    statusCode: 400,
    body: { status: 400 },
  });
});

t.test('documents: PUT 201/200 bodies, GET found and not found', async (t) => {
  const keys = ['_index', '_id', '_version', 'result', '_shards', '_seq_no', '_primary_term'];
  const created = await req('PUT', '/facts-docs/_doc/a', { x: 1 });
  t.equal(created.statusCode, 201, 'a missing index is created');
  t.same(Object.keys(created.body).sort(), [...keys].sort());
  t.match(created.body, {
    _index: 'facts-docs',
    _id: 'a',
    _version: 1,
    result: 'created',
    _seq_no: 0,
    _primary_term: 1,
  });
  const updated = await req('PUT', '/facts-docs/_doc/a', { x: 2 });
  t.equal(updated.statusCode, 200);
  t.match(updated.body, { result: 'updated', _version: 2, _seq_no: 1 });
  t.match(await req('GET', '/facts-docs/_doc/a'), {
    statusCode: 200,
    body: { _index: 'facts-docs', _id: 'a', found: true, _source: { x: 2 } },
  });
  t.same((await req('GET', '/facts-docs/_doc/b')).body, { _index: 'facts-docs', _id: 'b', found: false });
  t.match(await req('PUT', '/facts-docs/_doc/a', { x: 3 }, { if_seq_no: 0, if_primary_term: 1 }), {
    statusCode: 409,
    body: { error: { type: 'version_conflict_engine_exception' }, status: 409 },
  });
});

t.test('a missing index: the exact 404 body', async (t) => {
  const cause = {
    type: 'index_not_found_exception',
    reason: 'no such index [foo]',
    index: 'foo',
    'resource.id': 'foo',
    'resource.type': 'index_or_alias',
    index_uuid: '_na_',
  };
  for (const [method, path] of [
    ['GET', '/foo/_doc/1'],
    ['GET', '/foo/_settings'],
    ['GET', '/foo/_mapping'],
    ['GET', '/_cat/shards/foo'],
  ]) {
    const r = await req(method!, path!);
    t.equal(r.statusCode, 404, path);
    t.same(r.body, { error: { root_cause: [cause], ...cause }, status: 404 }, path);
  }
});

t.test(
  'every error body: {error:{root_cause,type,reason}, status = HTTP status}, read by ResponseError.statusCode',
  async (t) => {
    const cases: Array<[Req, number, Client?]> = [
      [{ method: 'GET', path: '/_cat/nodes', querystring: { s: 'nope' } }, 400],
      [{ method: 'PUT', path: '/logs/_settings', body: { index: { auto_expand_replicas: 'x' } } }, 400],
      [{ method: 'GET', path: '/_cat/shards/nope' }, 404],
      [{ method: 'GET', path: '/nope/_doc/1' }, 404],
      [
        { method: 'PUT', path: '/logs/_doc/a', querystring: { if_seq_no: 99, if_primary_term: 1 }, body: { a: 1 } },
        409,
      ],
    ];
    for (const [r, status, client] of cases) {
      const name = `${r.method} ${r.path} ${JSON.stringify(r.querystring ?? {})}`;
      try {
        await (client ?? lab.client).transport.request(r as never);
        t.fail(`${name}: no error`);
      } catch (err) {
        t.type(err, errors.ResponseError, name);
        const e = err as InstanceType<typeof errors.ResponseError>;
        t.equal(e.meta.statusCode, status, `${name}: HTTP status`);
        t.equal(e.statusCode, status, `${name}: ResponseError.statusCode`);
        t.match(e.meta.headers?.['content-type'], /^application\/json/, `${name}: JSON`);
        const body = e.meta.body as any;
        t.equal(body.status, status, `${name}: body status`);
        t.match(
          body.error,
          { root_cause: [{ type: String, reason: String }], type: String, reason: String },
          `${name}: error shape`,
        );
        t.equal(body.error.type, body.error.root_cause[0].type, `${name}: the root cause repeats the type`);
      }
      await client?.close();
    }
    // the security plugin refuses credentials with a bare text body and its challenge, not an exception object
    const badAuth = new Client({
      node: lab.url,
      ssl: { ca: lab.ca },
      maxRetries: 0,
      auth: { ...AUTH, password: 'no' },
    });
    try {
      await badAuth.transport.request({ method: 'GET', path: '/_cat/nodes' } as never);
      t.fail('wrong password: no error');
    } catch (err) {
      const e = err as InstanceType<typeof errors.ResponseError>;
      t.equal(e.meta.statusCode, 401, 'wrong password: 401');
      t.equal(e.meta.body, 'Unauthorized', 'wrong password: the text body');
      t.equal(e.meta.headers?.['www-authenticate'], 'Basic realm="OpenSearch Security"', 'wrong password: challenge');
    }
    await badAuth.close();
    // the REST layer's own refusals (RestController) carry a bare error string instead
    for (const [r, status, body] of [
      [
        { method: 'GET', path: '/_cat/nope/x' },
        400,
        { error: 'no handler found for uri [/_cat/nope/x] and method [GET]' },
      ],
      [
        { method: 'DELETE', path: '/_cat/nodes' },
        405,
        { error: 'Incorrect HTTP method for uri [/_cat/nodes] and method [DELETE], allowed: [GET]', status: 405 },
      ],
    ] as const) {
      const err = await lab.client.transport.request(r as never).then(
        () => null,
        (e: unknown) => e as InstanceType<typeof errors.ResponseError>,
      );
      t.equal(err?.statusCode, status, `${r.method} ${r.path}: ResponseError.statusCode`);
      t.strictSame(err?.meta.body, body, `${r.method} ${r.path}: body`);
    }
  },
);
