/** The deadline primitive the request client and fix's waits share: the time left bounds every piece of work. */
import t from 'tap';
import { DeadlineError, deadline, within } from '../../../src/base/deadline.ts';

const never = new Promise<never>(() => undefined);

t.test('within: work that never settles rejects with DeadlineError naming it, and the abort hook runs', async (t) => {
  let aborted = false;
  const err = await within(never, 20, 'GET /x', () => (aborted = true)).catch((e: unknown) => e);
  t.type(err, DeadlineError);
  t.match((err as Error).message, 'GET /x: no complete answer within 20 ms');
  t.ok(aborted, 'the abandoned work is aborted');
});

t.test('within: settled work passes through, value or error, and no abort happens', async (t) => {
  let aborted = false;
  t.equal(await within(Promise.resolve(7), 50, 'w', () => (aborted = true)), 7);
  await t.rejects(within(Promise.reject(new Error('boom')), 50, 'w'), { message: 'boom' });
  t.notOk(aborted);
});

t.test('deadline: the time left comes from the injected clock and bounds each race', async (t) => {
  let now = 1000;
  const dl = deadline(500, () => now);
  t.equal(dl.left(), 500);
  t.notOk(dl.expired());
  now = 1400;
  t.equal(dl.left(), 100);
  now = 1600;
  t.equal(dl.left(), 0, 'never below zero');
  t.ok(dl.expired());
  // nothing left: a stalled answer is given up at once
  const err = await dl.race(never, 'GET /_cat/nodes').catch((e: unknown) => e);
  t.type(err, DeadlineError);
});
