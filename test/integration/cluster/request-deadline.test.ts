/** A REST answer that stalls after its headers, or trickles, ends at the request deadline instead of hanging smdoctor. */
import t from 'tap';
import { createClusterApi } from '../../../src/cluster/client.ts';
import { ApiError } from '../../../src/base/errors.ts';
import type { HostConfig } from '../../../src/inventory/types.ts';
import { hostileServer, settlesOrHangs, stallAfterHeaders, trickle } from '../../helpers/hostile.ts';

const cfg = (apiUrl: string): HostConfig =>
  ({
    name: 'h1',
    connection: 'ssh',
    address: '127.0.0.1',
    port: 22,
    user: 'u',
    become: false,
    knownHostsFile: '/dev/null',
    hostKeyChecking: 'strict',
    engine: 'opensearch',
    searchHome: '/x',
    webHome: '/y',
    engineUser: 'opensearch',
    restartCommand: 'true',
    apiUrl,
    apiPasswordEnv: 'NONE',
    apiInsecure: false,
    inDashboardsGroup: false,
  }) as HostConfig;

for (const [name, handler] of [
  ['a body that stalls after the headers', stallAfterHeaders],
  ['a body trickled a byte at a time', trickle(100)],
] as const) {
  t.test(`request deadline: ${name} rejects with ApiError once the deadline passes`, async (t) => {
    const srv = await hostileServer(handler);
    t.teardown(() => srv.close());
    const api = createClusterApi(cfg(srv.url), { env: {}, requestTimeout: 1000 });
    t.teardown(() => api.close());
    const r = await settlesOrHangs(
      api.request({ method: 'GET', path: '/_cat/nodes' }).then(
        () => 'answered',
        (e: unknown) => e,
      ),
      20_000,
    );
    t.not(r, 'hung', 'the request does not hang');
    t.type(r, ApiError);
    t.match((r as Error).message, /GET .*\/_cat\/nodes failed: .*no complete answer within 1s/);
  });
}
