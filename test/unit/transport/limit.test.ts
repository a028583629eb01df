import t from 'tap';
import { mapLimit, mapLimitSettled } from '../../../src/transport/limit.ts';

/** A fn whose calls finish in an order we control, counting how many run at once. */
function tracker() {
  let inFlight = 0;
  let max = 0;
  let started = 0;
  const fn = async (n: number, i: number): Promise<number> => {
    started++;
    inFlight++;
    max = Math.max(max, inFlight);
    // Later items finish sooner, so completion order differs from input order.
    for (let k = 0; k < 20 - (i % 7); k++) await Promise.resolve();
    inFlight--;
    if (n < 0) throw new Error(`bad ${n}`);
    return n * 10;
  };
  return { fn, max: () => max, started: () => started };
}

t.test('mapLimit keeps input order and bounds concurrency', async (t) => {
  for (const [count, limit] of [
    [20, 5],
    [3, 10],
    [1, 1],
    [0, 4],
    [9, 1],
  ] as const) {
    const tr = tracker();
    const items = Array.from({ length: count }, (_, i) => i);
    const out = await mapLimit(items, limit, tr.fn);
    t.same(
      out,
      items.map((i) => i * 10),
      `${count} items, limit ${limit}`,
    );
    t.ok(tr.max() <= limit, `max in flight ${tr.max()} <= ${limit}`);
    if (count >= limit && count > 0) t.equal(tr.max(), limit, 'uses the whole limit');
  }
});

t.test('mapLimit rejects with the first error and starts no new items', async (t) => {
  const tr = tracker();
  const items = [1, 2, -3, 4, 5, 6, 7, 8, 9, 10];
  await t.rejects(mapLimit(items, 2, tr.fn), { message: 'bad -3' });
  t.ok(tr.started() < items.length, 'stopped early');
});

t.test('mapLimitSettled reports every item', async (t) => {
  const tr = tracker();
  const out = await mapLimitSettled([1, -2, 3, -4], 2, tr.fn);
  t.match(out, [
    { ok: true, value: 10 },
    { ok: false, error: { message: 'bad -2' } },
    { ok: true, value: 30 },
    { ok: false, error: { message: 'bad -4' } },
  ]);
  t.equal(tr.started(), 4);
});

t.test('bad limits', async (t) => {
  for (const limit of [0, -1, 1.5, NaN]) {
    await t.rejects(
      mapLimit([1], limit, async (x) => x),
      RangeError,
      String(limit),
    );
  }
});
