/** migrate's readers reject malformed search answers with the endpoint and field named, not a TypeError. */
import t from 'tap';
import { ApiError } from '../../../src/base/errors.ts';
import type { ApiRequest, ApiResponse, ClusterApi } from '../../../src/cluster/types.ts';
import { scrollHits } from '../../../src/cluster/scroll.ts';
import { readAll } from '../../helpers/migrate/read-all.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';

/** Answers each request with the next body from `bodies` (status 200). */
function api(bodies: unknown[]): ClusterApi {
  let i = 0;
  return {
    url: 'https://127.0.0.1:9200',
    request: async <T>(_req: ApiRequest) =>
      ({ statusCode: 200, body: bodies[Math.min(i++, bodies.length - 1)] }) as ApiResponse<T>,
    close: async () => undefined,
  };
}

const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => 'resolved',
    (e: unknown) => e,
  );

t.test('migrate readers: malformed search pages', async (t) => {
  const rejectsShape = async (_t: unknown, p: Promise<unknown>, msg: RegExp) => {
    const err = await failure(p);
    t.type(err, ApiError, 'an ApiError, not a TypeError');
    t.match((err as Error).message, msg);
  };
  await rejectsShape(
    t,
    readAll(api([{ pit_id: 'p' }, { hits: { hits: 5 } }]), 'jobs'),
    /POST \/_search \(point in time of jobs\) answered an unexpected shape: field hits\.hits is number 5/,
  );
  await rejectsShape(t, readAll(api([null]), 'jobs'), /point_in_time answered an unexpected shape: the body is null/);
  await rejectsShape(
    t,
    scrollHits(api([{ _scroll_id: 's', hits: { hits: [null] } }]), '/jobs/_search', { size: 10 }),
    /POST \/jobs\/_search answered an unexpected shape: field hits\.hits\[0\] is null/,
  );
  await rejectsShape(
    t,
    clusterMacros(api(['x'])).macros(),
    /_search answered an unexpected shape: the body is string "x"/,
  );
  await rejectsShape(
    t,
    clusterMappings(api([{ logs: 3 }])).mappings([['logs']], ['host']),
    /_mapping\/field\/host answered an unexpected shape: field logs is number 3/,
  );
});
