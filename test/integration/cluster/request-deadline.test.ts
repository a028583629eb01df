/** A REST answer that stalls after its headers, or trickles, ends at the request deadline instead of hanging smdoctor. */
import t from 'tap';
import { createClusterApi } from '../../../src/cluster/client.ts';
import { ApiError } from '../../../src/base/errors.ts';
import type { HostConfig } from '../../../src/inventory/types.ts';
import { hostConfigOf } from '../../helpers/host-config.ts';
import { hostileServer, settlesOrHangs, stallAfterHeaders, trickle } from '../../helpers/hostile.ts';

const cfg = (apiUrl: string): HostConfig => hostConfigOf('h1', { apiUrl, apiPasswordEnv: 'NONE' });

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
