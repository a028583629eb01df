/** audit reads time from its deps object, as fix does: the report's time and the lease note's "live or expired". */
import t from 'tap';
import { runAudit } from '../../../src/audit/run.ts';
import { LEASE_PATH } from '../../../src/facts/lease-note.ts';
import { mapLimit } from '../../../src/transport/limit.ts';
import type { ApiRequest, ApiResponse, ClusterApi } from '../../../src/cluster/types.ts';
import type { HostConfig, Inventory } from '../../../src/inventory/types.ts';

const URL = 'https://10.0.0.1:9200';
const inventory: Inventory = { file: 'inv.yml', hosts: new Map(), groups: new Map() };
const lease = {
  holder: { user: 'ops', host: 'elsewhere', pid: 1, command: 'smdoctor fix' },
  started_at: '2030-01-01T00:00:00.000Z',
  expires_at: '2030-01-01T00:02:00.000Z',
};

/** A cluster that answers only its health and a fix lease held by another run. */
const api: ClusterApi = {
  url: URL,
  async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const body =
      req.path === LEASE_PATH
        ? { _source: lease }
        : req.path === '/_cluster/health'
          ? { cluster_name: 'c', status: 'green' }
          : null;
    return { statusCode: body ? 200 : 404, body } as ApiResponse<T>;
  },
  async close() {},
};

const CASES = [
  { name: 'before the lease expires', at: '2030-01-01T00:01:00.000Z', note: /smdoctor fix is running on this cluster/ },
  { name: 'after the lease expires', at: '2030-01-01T00:03:00.000Z', note: /an expired smdoctor fix lease was left/ },
];

for (const c of CASES) {
  t.test(c.name, async (t) => {
    const now = Date.parse(c.at);
    const report = await runAudit({
      inventory,
      hosts: ['n1'],
      forks: 1,
      timeout: 5,
      env: {},
      deps: {
        now: () => now,
        hostConfig: (_inv, name) => ({ name, address: '10.0.0.1', apiUrl: URL }) as HostConfig,
        clustersOf: (_inv, hosts) => [{ apiUrl: URL, hosts }],
        connect: async () => {
          throw new Error('connect ECONNREFUSED');
        },
        api: () => api,
        runChecks: () => [],
        mapLimit,
      },
    });
    t.equal(report.generated_at, c.at, 'the report is dated by the injected clock');
    const notes = report.clusters[0]!.notes.map((n) => n.message);
    t.ok(
      notes.some((m) => c.note.test(m)),
      `the lease note is judged at the injected time: ${notes.join(' | ')}`,
    );
  });
}
