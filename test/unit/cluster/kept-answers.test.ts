/** serve's kept REST answers: the same bytes are not parsed again and give the same frozen body; anything else is afresh. */
import t from 'tap';
import { keptAnswers } from '../../../src/cluster/kept-answers.ts';
import type { ApiRequest } from '../../../src/cluster/types.ts';

const JSON_TYPE = { 'content-type': 'application/json; charset=UTF-8' };

t.test('the same status, type and bytes: the same body, parsed once and frozen', async (t) => {
  const kept = keptAnswers();
  let parsed = 0;
  const get: ApiRequest = { method: 'GET', path: '/_cat/nodes', querystring: { format: 'json' } };
  const answer = (text: string, status = 200, headers = JSON_TYPE) =>
    kept.body(get, status, headers, Buffer.from(text), () => (parsed++, JSON.parse(text) as unknown));
  const a = answer('[{"name":"m1","roles":{"x":[1]}}]') as Array<{ name: string; roles: { x: number[] } }>;
  t.equal(answer('[{"name":"m1","roles":{"x":[1]}}]'), a);
  t.equal(parsed, 1, 'parsed once');
  t.ok(Object.isFrozen(a) && Object.isFrozen(a[0]) && Object.isFrozen(a[0]!.roles.x), 'frozen all the way down');
  t.throws(() => {
    a[0]!.name = 'changed';
  }, TypeError);

  t.not(answer('[{"name":"m2"}]'), a, 'other bytes');
  t.not(answer('[{"name":"m2"}]', 503), a, 'another status');
  t.not(answer('[{"name":"m2"}]', 503, { 'content-type': 'text/plain' }), a, 'another type');
  t.equal(parsed, 4);
  const other = { ...get, querystring: { format: 'json', h: 'name' } };
  kept.body(other, 200, JSON_TYPE, Buffer.from('[{"name":"m2"}]'), () => (parsed++, []));
  t.equal(parsed, 5, 'another request: its own answer');
});

t.test('a request with a body, or not a GET, is answered afresh', async (t) => {
  const kept = keptAnswers();
  let parsed = 0;
  const reqs: ApiRequest[] = [
    { method: 'PUT', path: '/_cluster/settings', body: { persistent: {} } },
    { method: 'GET', path: '/_search', body: { query: {} } },
  ];
  for (const req of reqs)
    for (let i = 0; i < 2; i++) kept.body(req, 200, JSON_TYPE, Buffer.from('{}'), () => (parsed++, {}));
  t.equal(parsed, 4);
});

t.test('an answer nested deeper than the call stack is frozen all the same', async (t) => {
  const depth = 200_000;
  const text = '['.repeat(depth) + ']'.repeat(depth);
  const req: ApiRequest = { method: 'GET', path: '/deep' };
  const body = keptAnswers().body(req, 200, JSON_TYPE, Buffer.from(text), () => JSON.parse(text) as unknown);
  let inner = body as unknown[];
  for (let i = 0; i < depth - 1; i++) inner = inner[0] as unknown[];
  t.ok(Object.isFrozen(body) && Object.isFrozen(inner), 'the outermost and the innermost');
});
