import t from 'tap';
import { labForFile } from '../../helpers/lab.ts';
import { agreesWithLocal, BASE } from '../../helpers/migrate/service.ts';
import { requestAs } from '../../helpers/request-as.ts';

// The lab's migration endpoints answer what smdoctor's own module answers, and reject bad requests as the engine does.
const shared = labForFile('healthy');

t.test('healthy: the three endpoints agree with --source local on every stored query', async (t) => {
  await agreesWithLocal(t, shared.target, shared.lab.inventoryPath);
});

t.test('explain: every bad request is a 400 (405 for a wrong method) in the engine error shape', async (t) => {
  const { api } = shared.target;
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['no body', undefined, 'parse_exception', /request body is required/],
    ['an array', ['source x'], 'parse_exception', /JSON object/],
    ['a string', 'source x', 'parse_exception', /Failed to parse|JSON object/],
    ['no query', {}, 'action_request_validation_exception', /query is missing/],
    ['query not a string', { query: 5 }, 'x_content_parse_exception', /VALUE_NUMBER/],
    ['query null', { query: null }, 'x_content_parse_exception', /VALUE_NULL/],
    [
      'an unknown field',
      { query: 'source x', explain: true },
      'x_content_parse_exception',
      /unknown field \[explain\]/,
    ],
    ['not JSON', '{"query": ', 'parse_exception', /Failed to parse/],
  ];
  for (const [what, body, type, reason] of cases) {
    const r = await requestAs<any>(api, {
      method: 'POST',
      path: `${BASE}/explain`,
      ...(body === undefined ? {} : { body }),
    });
    t.equal(r.statusCode, 400, what);
    t.match(r.body, { error: { root_cause: [{ type, reason }], type, reason }, status: 400 }, what);
  }
  for (const [method, path] of [
    ['GET', 'explain'],
    ['POST', 'jobscheduler'],
    ['DELETE', 'dashboards'],
  ] as const) {
    const r = await requestAs<any>(api, { method, path: `${BASE}/${path}` });
    t.equal(r.statusCode, 405, `${method} ${path}`);
    t.match(r.body, { error: /Incorrect HTTP method/, status: 405 });
  }
  const unknown = await requestAs<any>(api, { method: 'GET', path: `${BASE}/nothing` });
  t.equal(unknown.statusCode, 400, 'an unknown endpoint: no handler');
  t.match(unknown.body, { error: /no handler found/ });
  const ok = await requestAs<any>(api, { method: 'POST', path: `${BASE}/explain`, body: { query: 'search host=a' } });
  t.equal(ok.statusCode, 200, 'a query with errors is still answered');
  t.match(ok.body, { original: 'search host=a', errors: [{ code: String }] });
});
