/** Once the hold's PUT is sent, the allocation setting is put back on every path, and verified by reading it back. */
import t from 'tap';
import { restartService } from '../../../src/fix/restart.ts';
import type { ApiRequest, ApiResponse, ClusterApi } from '../../../src/cluster/types.ts';
import { errorBody, fakeEnv, fakeHost, ok, planned, type Log } from '../../helpers/fix/fakes.ts';

const KEY = 'cluster.routing.allocation.enable';
const NODES = [
  { ip: '10.0.0.11', name: 'm1' },
  { ip: '10.0.0.12', name: 'm2' },
  { ip: '10.0.0.21', name: 'd1' },
];
const NO_MANAGER = errorBody(503, 'cluster_manager_not_discovered_exception', null as unknown as string);

interface Knobs {
  /** How the hold's PUT answers once applied: 503 (change queued), or never. */
  hold?: 'ok' | '503' | 'stall';
  /** Restore PUTs that answer 503 before one is applied. */
  restoreFails?: number;
  /** Polls of _cat/nodes during which d1 is away. */
  away?: number;
}

/** A cluster that keeps the setting's two layers and applies every PUT it is sent, whatever it answers. */
function cluster(log: Log, k: Knobs) {
  const state: { persistent: string | null; transient: string | null } = { persistent: null, transient: null };
  let restoreFails = k.restoreFails ?? 0;
  let cat = 0;
  const onHoldSent: Array<() => void> = [];
  const api: ClusterApi & { state: typeof state; onHoldSent: typeof onHoldSent } = {
    url: 'https://10.0.0.1:9200',
    state,
    onHoldSent,
    async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      const put = req.body as { persistent?: Record<string, string | null>; transient?: Record<string, string | null> };
      log.push(`api ${req.method} ${req.path}${req.method === 'PUT' ? ` ${JSON.stringify(req.body)}` : ''}`);
      if (req.path === '/_cluster/settings' && req.method === 'GET')
        return ok({
          persistent: state.persistent ? { [KEY]: state.persistent } : {},
          transient: state.transient ? { [KEY]: state.transient } : {},
        }) as ApiResponse<T>;
      if (req.path === '/_cluster/settings' && req.method === 'PUT') {
        const holding = put.persistent?.[KEY] === 'primaries';
        if (!holding && restoreFails-- > 0) return NO_MANAGER as ApiResponse<T>;
        if (put.persistent && KEY in put.persistent) state.persistent = put.persistent[KEY] ?? null;
        if (put.transient && KEY in put.transient) state.transient = put.transient[KEY] ?? null;
        if (holding) {
          for (const f of onHoldSent) f();
          if (k.hold === '503') return NO_MANAGER as ApiResponse<T>;
          if (k.hold === 'stall') return new Promise<never>(() => undefined);
        }
        return ok({ acknowledged: true }) as ApiResponse<T>;
      }
      if (req.path === '/_flush') return ok({}) as ApiResponse<T>;
      if (req.path === '/_cat/nodes')
        return ok(cat++ < (k.away ?? 0) ? NODES.filter((n) => n.name !== 'd1') : NODES) as ApiResponse<T>;
      if (req.path === '/_cluster/health') return ok({ status: 'green', number_of_nodes: 3 }) as ApiResponse<T>;
      return errorBody(404, 'not_found') as ApiResponse<T>;
    },
    async close() {},
  };
  return api;
}

const restartD1 = planned({ type: 'restart-service', host: 'd1', service: 'opensearch', command: 'restart d1' });

t.test('the hold is applied but answered 503: restored, and the report says what was read back', async (t) => {
  const log: Log = [];
  const api = cluster(log, { hold: '503' });
  api.state.transient = 'all';
  const r = await restartService(restartD1, fakeEnv(log, api, [fakeHost('d1', log)], { timeout: 1 }));
  t.equal(r.status, 'failed');
  t.match(r.error, /cluster_manager_not_discovered_exception/);
  t.match(r.error, /allocation restored \(persistent unset, transient all, as read back\)/);
  t.same(api.state, { persistent: null, transient: 'all' });
  t.match(r.allocation, { restored: true, left: { persistent: null, transient: 'all' } });
  t.notOk(
    log.some((l) => l.startsWith('exec')),
    'no restart after a failed hold',
  );
});

t.test('the hold is applied but its answer comes after the deadline: restored', async (t) => {
  const log: Log = [];
  const api = cluster(log, { hold: 'stall' });
  const r = await restartService(restartD1, fakeEnv(log, api, [fakeHost('d1', log)], { timeout: 1 }));
  t.equal(r.status, 'failed');
  t.match(r.error, /PUT \/_cluster\/settings: no complete answer within 1s/);
  t.match(r.error, /allocation restored/);
  t.same(api.state, { persistent: null, transient: null });
});

t.test('Ctrl-C while the hold PUT is in flight: restored', async (t) => {
  const log: Log = [];
  const api = cluster(log, { hold: 'stall' });
  const stop = new AbortController();
  api.onHoldSent.push(() => stop.abort());
  const r = await restartService(
    restartD1,
    fakeEnv(log, api, [fakeHost('d1', log)], { timeout: 1, signal: stop.signal }),
  );
  t.match(r, { status: 'failed', error: /interrupted.*allocation restored/ });
  t.same(api.state, { persistent: null, transient: null });
});

t.test('restore answered 503 while no manager is elected: retried with backoff until read back', async (t) => {
  const log: Log = [];
  const api = cluster(log, { restoreFails: 3 });
  const r = await restartService(restartD1, fakeEnv(log, api, [fakeHost('d1', log)]));
  t.match(r, { status: 'done', allocation: { restored: true } });
  t.same(api.state, { persistent: null, transient: null });
  const sleeps = log.filter((l) => l.startsWith('sleep')).map((l) => Number(l.slice(6)));
  t.same(sleeps.slice(-3), [250, 500, 1000], 'backoff between attempts');
});

t.test('Ctrl-C while the node is down: waits for it to rejoin, then restores', async (t) => {
  const log: Log = [];
  const api = cluster(log, { away: 3 });
  const stop = new AbortController();
  const phases: string[] = [];
  const host = fakeHost('d1', log, {}, () => {
    stop.abort();
    return { code: 0, stdout: '', stderr: '' };
  });
  const r = await restartService(
    restartD1,
    fakeEnv(log, api, [host], { signal: stop.signal, onProgress: (p) => phases.push(p.phase) }),
  );
  t.match(r, { status: 'failed', error: /interrupted.*node d1 rejoined before the restore.*allocation restored/ });
  t.ok(phases.includes('rejoin-before-restore'), 'a progress line says it waits');
  const restorePut = log.findIndex((l) => l.startsWith('api PUT') && !l.includes('primaries'));
  const cats = log.slice(0, restorePut).filter((l) => l.includes('_cat/nodes')).length;
  t.equal(cats, 4, 'three polls without d1, then the one that saw it back, before the restore');
  t.same(api.state, { persistent: null, transient: null });
});

t.test('a second Ctrl-C while waiting for the node: restores at once', async (t) => {
  const log: Log = [];
  const api = cluster(log, { away: 1e9 });
  const stop = new AbortController();
  const urgent = new AbortController();
  const host = fakeHost('d1', log, {}, () => {
    stop.abort();
    return { code: 0, stdout: '', stderr: '' };
  });
  let polls = 0;
  const env = fakeEnv(log, api, [host], { signal: stop.signal, urgent: urgent.signal });
  const sleep = env.sleep;
  env.sleep = async (ms) => {
    if (++polls === 2) urgent.abort();
    return sleep(ms);
  };
  const r = await restartService(restartD1, env);
  t.match(r, { status: 'failed', error: /restored at once \(second interrupt\).*allocation restored/ });
  t.same(api.state, { persistent: null, transient: null });
  t.ok(polls < 5, 'did not wait out the deadline');
});
