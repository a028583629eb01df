import t from 'tap';
import { baseLimitDocument, BASE_LIMIT_DEFAULTS } from '../../../src/checks/index.ts';
import { cluster, NOT_FOUND_INDEX, type Build } from '../../helpers/checks/facts.ts';

const run = (api: Build['api']) => baseLimitDocument.run(cluster({ api }));
const PUT = {
  type: 'put-document',
  method: 'PUT',
  api_path: '/.sm_sme_limits_user/_doc/base_limit',
  status: 'planned',
};

t.test('present and valid: pass', async (t) => {
  t.match(run({}), { status: 'pass', findings: [], actions: [] });
});

t.test('missing document or index: fail with the §2.1 defaults', async (t) => {
  const notFound = { statusCode: 404, body: { _index: '.sm_sme_limits_user', _id: 'base_limit', found: false } };
  for (const [name, endpoint] of [
    ['document', notFound],
    ['index', NOT_FOUND_INDEX],
  ] as const) {
    const r = run({ baseLimitEndpoint: endpoint, baseLimitDoc: endpoint });
    t.match(r, { status: 'fail', findings: [{ evidence: { status: 404 } }], actions: [PUT] }, name);
    t.same(
      r.actions[0].body,
      {
        allowed_dt_start: 'now-10y',
        allowed_dt_end: 'now',
        max_parallel_request_count: 5,
        background_disk_quota: 5000000000,
        allowed_commands: ['*'],
        background_result_ttl: 86400,
        max_payload_size: 10000000000,
        max_search_running_time: 6000,
        max_command_ram_usage: 10000000000,
        max_payload_row_count: 1000000,
        max_lookup_size: 500000000,
        max_qsize: 200000,
        _meta: { id: 'base_limit' },
      },
      `${name}: exactly the seed defaults`,
    );
  }
});

t.test('invalid document: one finding per problem, corrected body keeps valid values', async (t) => {
  const good = {
    ...structuredClone(BASE_LIMIT_DEFAULTS),
    max_qsize: 123,
    allowed_commands: ['search', 'stats'],
    custom: 'kept',
  };
  const cases: Array<{
    name: string;
    change: Record<string, unknown>;
    drop?: string[];
    fields: string[];
    expect: Record<string, unknown>;
  }> = [
    {
      name: 'missing field',
      change: {},
      drop: ['max_lookup_size'],
      fields: ['max_lookup_size'],
      expect: { max_lookup_size: 500000000 },
    },
    {
      name: 'string integer',
      change: { max_parallel_request_count: '5' },
      fields: ['max_parallel_request_count'],
      expect: { max_parallel_request_count: 5 },
    },
    {
      name: 'float',
      change: { background_result_ttl: 1.5 },
      fields: ['background_result_ttl'],
      expect: { background_result_ttl: 86400 },
    },
    {
      name: 'commands not strings',
      change: { allowed_commands: ['*', 3] },
      fields: ['allowed_commands'],
      expect: { allowed_commands: ['*'] },
    },
    {
      name: 'commands a string',
      change: { allowed_commands: '*' },
      fields: ['allowed_commands'],
      expect: { allowed_commands: ['*'] },
    },
    {
      name: 'bad _meta id',
      change: { _meta: { id: 'other' } },
      fields: ['_meta'],
      expect: { _meta: { id: 'base_limit' } },
    },
    { name: 'missing _meta', change: {}, drop: ['_meta'], fields: ['_meta'], expect: { _meta: { id: 'base_limit' } } },
    {
      name: 'time not a string',
      change: { allowed_dt_start: 10, allowed_dt_end: null },
      fields: ['allowed_dt_start', 'allowed_dt_end'],
      expect: { allowed_dt_start: 'now-10y', allowed_dt_end: 'now' },
    },
  ];
  for (const c of cases) {
    const source: Record<string, unknown> = { ...structuredClone(good), ...c.change };
    for (const d of c.drop ?? []) delete source[d];
    const r = run({ baseLimitDoc: { statusCode: 200, body: { found: true, _source: source } } });
    t.equal(r.status, 'fail', c.name);
    t.same(
      r.findings.map((f) => f.evidence?.field),
      c.fields,
      `${c.name}: findings`,
    );
    t.match(r.actions, [PUT], `${c.name}: put`);
    const body = r.actions[0].body as Record<string, unknown>;
    t.match(
      body,
      { ...c.expect, max_qsize: 123, allowed_dt_end: c.expect.allowed_dt_end ?? 'now', custom: 'kept' },
      `${c.name}: corrected body`,
    );
    if (!('allowed_commands' in c.expect))
      t.same(body.allowed_commands, ['search', 'stats'], `${c.name}: valid values kept`);
  }
});

t.test('the endpoint body is used when _doc was not read', async (t) => {
  const r = run({
    baseLimitDoc: undefined,
    baseLimitEndpoint: { statusCode: 200, body: { ...BASE_LIMIT_DEFAULTS, max_qsize: 'big' } },
  });
  t.match(r, { status: 'fail', findings: [{ message: /max_qsize must be an integer/ }] });
  t.match(run({ baseLimitDoc: undefined, baseLimitEndpoint: { statusCode: 200, body: 'text' } }), {
    status: 'fail',
    findings: [{ message: /not a JSON object/ }],
  });
});

t.test('undecidable: error with the reason', async (t) => {
  t.match(run({ reachable: false, error: 'connect ECONNREFUSED 10.0.0.1:9200' }), {
    status: 'error',
    reason: /unreachable: connect ECONNREFUSED/,
    actions: [],
  });
  t.match(run({ baseLimitEndpoint: { statusCode: 500, body: { error: 'x', status: 500 } } }), {
    status: 'error',
    reason: /HTTP 500/,
    actions: [],
  });
  t.match(run({ baseLimitEndpoint: undefined }), { status: 'error', reason: /not read/ });
});
