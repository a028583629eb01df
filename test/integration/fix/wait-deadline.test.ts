/** fix's waits (rejoin, shard copies) end at their overall deadline even when an answer stalls forever. */
import t from 'tap';
import { waitForRejoin } from '../../helpers/plain-restart.ts';
import { verifyShards } from '../../../src/fix/steps-api.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';
import { settlesOrHangs } from '../../helpers/hostile.ts';
import { fakeEnv, planned, type Log } from '../../helpers/fix/fakes.ts';

/** An API whose every answer stalls: a client without a deadline of its own, or a deadline longer than the wait. */
const stalled = (log: Log): ClusterApi => ({
  url: 'https://10.0.0.1:9200',
  request: (req) => {
    log.push(`api ${req.method} ${req.path}`);
    return new Promise(() => undefined);
  },
  close: async () => undefined,
});

// real clock: a 0.1 s --timeout gives waits of 0.5 s
const realClock = {
  timeout: 0.1,
  pollMs: 50,
  now: Date.now,
  sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
};

t.test('rejoin wait: a stalled _cat/nodes answer counts against the wait, which fails at its deadline', async (t) => {
  const log: Log = [];
  const r = await settlesOrHangs(waitForRejoin('d1', fakeEnv(log, stalled(log), [], realClock)), 20_000);
  t.not(r, 'hung', 'the wait ends');
  t.match(r, /node d1 did not rejoin within 0.5s: GET \/_cat\/nodes: no complete answer/);
});

t.test('shard-copy wait: a stalled answer counts against the wait, which fails at its deadline', async (t) => {
  const log: Log = [];
  const a = planned({ type: 'verify-shards', method: 'GET', api_path: '/_cat/shards/.sm_sme_limits_user' });
  const r = await settlesOrHangs(verifyShards(a, fakeEnv(log, stalled(log), [], realClock)), 20_000);
  if (r === 'hung') return t.fail('the wait is still running');
  t.equal(r.status, 'failed');
  t.match(r.error, /after 0.5s: GET \/_cat\/nodes: no complete answer/);
});
