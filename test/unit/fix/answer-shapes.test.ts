/**
 * Fix's REST answers of a foreign shape: health, allocation, the lease, the writes and the node list each end in an
 * error naming the endpoint and the field, never in a value read as absent or a TypeError later.
 */
import t from 'tap';
import type { ApiResponse, ClusterApi } from '../../../src/cluster/types.ts';
import { byRoute, fakeApi, ok } from '../../helpers/fake-api.ts';
import type { ActionOf } from '../../../src/model/index.ts';
import type { StepEnv } from '../../../src/fix/types.ts';
import { deadline } from '../../../src/base/deadline.ts';
import { preflight, readHealth } from '../../../src/fix/gate.ts';
import { holdPrimaries, readAllocation } from '../../../src/fix/allocation.ts';
import { renewLease, takeLease, type LeaseState } from '../../../src/fix/lease.ts';
import { nodeListed } from '../../../src/fix/rejoin.ts';
import { putDocument, putSettings } from '../../../src/fix/steps-api.ts';
import { catNodesWithManager, lineOf } from '../../../src/cluster/engine-line.ts';

type Answers = Record<string, ApiResponse>;

const GREEN = ok({ status: 'green', number_of_data_nodes: 1, unassigned_shards: 0 });
const VERSION = (number: string) => ok({ version: { distribution: 'opensearch', number } });

/** Answers by `METHOD /path` (no query string); anything else is a 404. */
const routed = (answers: Answers): ClusterApi =>
  fakeApi(byRoute(answers, { statusCode: 404, body: { error: { type: 'not_found' } } }), {
    url: 'https://127.0.0.1:9200',
  });

const me = { user: 'bob', host: 'b', pid: 1, command: 'smdoctor fix' };
const leaseOptions = {
  ttlMs: 60_000,
  now: () => Date.parse('2026-06-01T00:00:00Z'),
  clock: () => 0,
  sleep: async () => {},
  activeSecs: 1,
};
const held: Extract<LeaseState, { kind: 'held' }> = {
  kind: 'held',
  seqNo: 1,
  primaryTerm: 1,
  doc: { holder: me, started_at: '2026-06-01T00:00:00Z', expires_at: '2026-06-01T00:01:00Z' },
};
const env = (api: ClusterApi) =>
  ({
    api,
    nodes: [{ host: 'h1', name: 'n1', address: '127.0.0.9', roles: ['data'] }],
    timeout: 5,
    now: () => 0,
  }) as unknown as StepEnv;
const putDoc = {
  type: 'put-document',
  method: 'PUT',
  api_path: '/.sm_sme_limits_user/_doc/base_limit',
  body: { limit: 1 },
  op_type: 'create',
} as unknown as ActionOf<'put-document'>;
const putIndexSettings = {
  type: 'put-settings',
  method: 'PUT',
  api_path: '/.sm_sme_limits_user/_settings',
  body: { index: { auto_expand_replicas: '0-all' } },
} as unknown as ActionOf<'put-settings'>;
const leaseCreated = (written: unknown): Answers => ({
  'PUT /.smdoctor-lease': ok({ acknowledged: true }),
  'GET /_cluster/health/.smdoctor-lease': GREEN,
  'PUT /.smdoctor-lease/_doc/fix': { statusCode: 201, body: written },
});
const report = { nodes: [{ host: 'h1', name: 'n1', address: '127.0.0.9', roles: ['data'] }] } as never;

/** What a call came to, as words: a thrown error's message, a lease's or a look's reason, or what it returned. */
async function said(p: Promise<unknown>): Promise<string> {
  try {
    const r = await p;
    if (r && typeof r === 'object' && 'why' in r && typeof r.why === 'string') return r.why;
    return `resolved ${JSON.stringify(r)}`;
  } catch (err) {
    return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
}

const cases: Array<{ name: string; answers: Answers; run: (api: ClusterApi) => Promise<unknown>; want: RegExp }> = [
  {
    name: 'health: a count as text',
    answers: { 'GET /_cluster/health': ok({ status: 'yellow', unassigned_shards: '3' }) },
    run: (api) => readHealth(api),
    want: /GET \/_cluster\/health answered an unexpected shape: field unassigned_shards is string "3", expected number/,
  },
  {
    name: 'health: an array',
    answers: { 'GET /_cluster/health': ok([{ status: 'green' }]) },
    run: (api) => readHealth(api),
    want: /GET \/_cluster\/health answered an unexpected shape: the body is an array$/,
  },
  {
    name: 'health of a wait not met (408): the status a number',
    answers: { 'GET /_cluster/health': { statusCode: 408, body: { status: 1 } } },
    run: (api) => readHealth(api, { wait_for_status: 'green' }),
    want: /GET \/_cluster\/health answered an unexpected shape: field status is number 1, expected string/,
  },
  {
    name: 'allocation: a layer that is not an object',
    answers: { 'GET /_cluster/settings': ok({ persistent: 'primaries', transient: {} }) },
    run: (api) => readAllocation(api),
    want: /GET \/_cluster\/settings answered an unexpected shape: field persistent is string "primaries", expected object/,
  },
  {
    name: 'allocation: the value not a string (never read as unset)',
    answers: {
      'GET /_cluster/settings': ok({ persistent: {}, transient: { 'cluster.routing.allocation.enable': 5 } }),
    },
    run: (api) => readAllocation(api),
    want: /GET \/_cluster\/settings answered an unexpected shape: field transient\.cluster\.routing\.allocation\.enable is number 5/,
  },
  {
    name: 'allocation: acknowledged as text',
    answers: { 'PUT /_cluster/settings': ok({ acknowledged: 'true' }) },
    run: (api) => holdPrimaries(api, { persistent: null, transient: null }),
    want: /PUT \/_cluster\/settings answered an unexpected shape: field acknowledged is string "true", expected boolean/,
  },
  {
    name: 'lease: the created document version as text',
    answers: leaseCreated({ result: 'created', _seq_no: '7', _primary_term: 1 }),
    run: (api) => takeLease(api, me, leaseOptions),
    want: /PUT \/\.smdoctor-lease\/_doc\/fix answered an unexpected shape: field _seq_no is string "7", expected number/,
  },
  {
    name: "lease: the lease index's health status a number",
    answers: { ...leaseCreated({}), 'GET /_cluster/health/.smdoctor-lease': ok({ status: 2 }) },
    run: (api) => takeLease(api, me, leaseOptions),
    want: /GET \/_cluster\/health\/\.smdoctor-lease answered an unexpected shape: field status is number 2/,
  },
  {
    name: "lease: an existing lease index's settings not an object",
    answers: {
      ...leaseCreated({}),
      'PUT /.smdoctor-lease': { statusCode: 400, body: { error: { type: 'resource_already_exists_exception' } } },
      'GET /.smdoctor-lease/_settings/index.auto_expand_replicas': ok({ '.smdoctor-lease': 'x' }),
    },
    run: (api) => takeLease(api, me, leaseOptions),
    want: /GET \/\.smdoctor-lease\/_settings answered an unexpected shape: field \.smdoctor-lease is string "x"/,
  },
  {
    name: 'lease: a renewal whose primary term is null',
    answers: { 'PUT /.smdoctor-lease/_doc/fix': ok({ _seq_no: 2, _primary_term: null }) },
    run: (api) => renewLease(api, { ...held }, leaseOptions),
    want: /PUT \/\.smdoctor-lease\/_doc\/fix answered an unexpected shape: field _primary_term is null, expected number/,
  },
  {
    name: 'pre-flight: _cat/nodes an object',
    answers: { 'GET /': VERSION('2.19.1'), 'GET /_cluster/health': GREEN, 'GET /_cat/nodes': ok({ nodes: [] }) },
    run: (api) => preflight(api, report, [], false),
    want: /GET \/_cat\/nodes answered an unexpected shape: the body is an object, expected array/,
  },
  {
    name: 'rejoin: an address that is a number',
    answers: { 'GET /_cat/nodes': ok([{ ip: 9, name: 'n1' }]) },
    run: (api) =>
      nodeListed(
        env(api),
        'h1',
        'n1',
        deadline(5000, () => 0),
      ),
    want: /GET \/_cat\/nodes answered an unexpected shape: field \[0\]\.ip is number 9, expected string/,
  },
  {
    name: "1.3's _cat/nodes: a row that is not an object",
    answers: { 'GET /': VERSION('1.3.19'), 'GET /_cat/nodes': ok(['n1']) },
    run: (api) => catNodesWithManager(api, ['name', 'node.roles']),
    want: /GET \/_cat\/nodes answered an unexpected shape: field \[0\] is string "n1", expected object/,
  },
  {
    name: 'put-document: the result a number',
    answers: { 'PUT /.sm_sme_limits_user/_doc/base_limit': { statusCode: 201, body: { result: 1 } } },
    run: (api) => putDocument(putDoc, env(api)),
    want: /PUT \/\.sm_sme_limits_user\/_doc\/base_limit answered an unexpected shape: field result is number 1/,
  },
  {
    name: 'put-settings: acknowledged as text',
    answers: { 'PUT /.sm_sme_limits_user/_settings': ok({ acknowledged: 'yes' }) },
    run: (api) => putSettings(putIndexSettings, env(api)),
    want: /PUT \/\.sm_sme_limits_user\/_settings answered an unexpected shape: field acknowledged is string "yes"/,
  },
];

t.test('a foreign-shaped answer is an error naming the endpoint and the field', async (t) => {
  for (const c of cases) {
    const text = await said(c.run(routed(c.answers)));
    t.match(text, c.want, c.name);
    t.notMatch(text, /TypeError/, `${c.name}: no TypeError`);
  }
});

t.test('GET /: a version number that is not text is refused with the field', async (t) => {
  t.match(lineOf({ version: { distribution: 'opensearch', number: 2 } }), {
    unsupported: /GET \/ answered an unexpected shape: field version\.number is number 2, expected string/,
  });
});

t.test('what real OpenSearch sends still reads', async (t) => {
  const api = routed({
    ...leaseCreated({ _index: '.smdoctor-lease', result: 'created', _seq_no: 4, _primary_term: 2 }),
    'GET /_cluster/health': ok({ cluster_name: 'c', status: 'green', timed_out: false, number_of_nodes: 3 }),
    'GET /_cluster/settings': ok({ persistent: { 'cluster.routing.allocation.enable': 'primaries' }, transient: {} }),
  });
  t.match(await readHealth(api), { status: 'green', number_of_nodes: 3 });
  t.same(await readAllocation(api), { persistent: 'primaries', transient: null });
  t.match(await takeLease(api, me, leaseOptions), { kind: 'held', seqNo: 4, primaryTerm: 2 });
  t.same(lineOf({ version: { distribution: 'opensearch', number: '2.19.1' } }), { line: '2.x', number: '2.19.1' });
});
