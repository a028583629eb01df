/** A wait that ends at its deadline reports the real cause seen (connection refused), never "within 0 ms". */
import t from 'tap';
import { waitForRejoin } from '../../helpers/plain-restart.ts';
import { verifyShards } from '../../../src/fix/steps-api.ts';
import { ApiError } from '../../../src/base/errors.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';
import { fakeEnv, planned, type Log } from '../../helpers/fix/fakes.ts';

// connection failures take a few milliseconds, as over a network: a request given no time loses the race to its timer
const CAUSES = [
  'connect ECONNREFUSED 10.0.0.1:9200',
  'getaddrinfo ENOTFOUND search.example',
  'unable to verify the first certificate',
];
const failing = (log: Log, cause: string): ClusterApi => ({
  url: 'https://10.0.0.1:9200',
  request: (req) => {
    log.push(`api ${req.method} ${req.path}`);
    return new Promise((_, reject) =>
      setTimeout(() => reject(new ApiError(`${req.method} ${req.path} failed: ${cause}`)), 5),
    );
  },
  close: async () => undefined,
});

// a clock that only moves when the wait sleeps: the second attempt starts with no time left
function clock() {
  let now = 0;
  return { timeout: 0.1, pollMs: 500, now: () => now, sleep: async (ms: number) => void (now += ms) };
}

t.test('waits report the first real cause, not the deadline of an attempt that had no time', async (t) => {
  for (const cause of CAUSES) {
    const log: Log = [];
    const why = await waitForRejoin('d1', fakeEnv(log, failing(log, cause), [], clock()));
    t.match(why, `node d1 did not rejoin within 0.5s: GET /_cat/nodes failed: ${cause}`, cause);
    t.notMatch(why, /within 0 ms/);
    const a = planned({ type: 'verify-shards', method: 'GET', api_path: '/_cat/shards/.sm_sme_limits_user' });
    const r = await verifyShards(a, fakeEnv(log, failing(log, cause), [], clock()));
    t.equal(r.status, 'failed');
    t.match(r.error, cause, cause);
    t.notMatch(r.error, /within 0 ms/);
  }
});
