/** The one fake cluster API of the tests: answers from a function or a table, records what it was asked. */
import type { ApiRequest, ApiResponse, ClusterApi } from '../../src/cluster/types.ts';

/** The answer to the n-th recorded request (from 1). */
export type Answer = (req: ApiRequest, n: number) => ApiResponse | Promise<ApiResponse>;

export interface FakeApi extends ClusterApi {
  /** Every request answered by `answer`, in order. */
  readonly requests: ApiRequest[];
  /** How many times close() was called. */
  closed: number;
}

export interface FakeApiOptions {
  url?: string;
  /** Answers `GET /` with this release, unrecorded: every client reads it once to pick the line's terms. */
  release?: string;
}

export const FAKE_API_URL = 'https://10.0.0.1:9200';

export const ok = (body: unknown = {}): ApiResponse => ({ statusCode: 200, body });

/** What an engine answers for a path it does not have. */
export const NOT_FOUND: ApiResponse = {
  statusCode: 404,
  body: { error: { type: 'index_not_found_exception' }, status: 404 },
};

export function fakeApi(answer: Answer, o: FakeApiOptions = {}): FakeApi {
  const api: FakeApi = {
    url: o.url ?? FAKE_API_URL,
    requests: [],
    closed: 0,
    async request(req: ApiRequest): Promise<ApiResponse> {
      if (o.release !== undefined && req.method === 'GET' && req.path === '/')
        return ok({ version: { distribution: 'opensearch', number: o.release } });
      api.requests.push(req);
      return answer(req, api.requests.length);
    },
    async close() {
      api.closed++;
    },
  };
  return api;
}

export type Route = ApiResponse | ((req: ApiRequest) => ApiResponse);
/** Keyed `METHOD /path` or `/path` (any method), without the query string. */
export type Routes = Readonly<Record<string, Route>>;

/** Answers from a table of routes; anything else is `missing` (the engine's 404 unless said). */
export function byRoute(routes: Routes, missing: ApiResponse = NOT_FOUND): Answer {
  return (req) => {
    const r = routes[`${req.method} ${req.path}`] ?? routes[req.path];
    return typeof r === 'function' ? r(req) : (r ?? missing);
  };
}
