/** serve's reloads: never during a cycle, a storm of SIGHUPs makes one, a failed one keeps the setup, the stop waits. */
import t from 'tap';
import { reloading, type ReloadOptions } from '../../../src/serve/reload.ts';
import { newCycleState, runCycles } from '../../../src/serve/cycle.ts';
import type { Report } from '../../../src/model/index.ts';

/** A promise and its resolve, to hold a cycle or a load open while the test acts. */
function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}
const tick = () => new Promise((r) => setImmediate(r));

/** Setups numbered 1, 2, …; `busy` counts cycles and loads under way, to see that they never overlap. */
function harness(load: (n: number) => Promise<void> = async () => {}) {
  const seen = { loads: 0, busy: 0, most: 0, swaps: [] as Array<[number, number]>, failed: [] as string[] };
  const enter = () => (seen.most = Math.max(seen.most, ++seen.busy));
  const o: ReloadOptions<number> = {
    async load() {
      enter();
      try {
        const n = ++seen.loads + 1;
        await load(n);
        return n;
      } finally {
        seen.busy--;
      }
    },
    swap: async (next, prev) => void seen.swaps.push([prev, next]),
    failed: (e) => void seen.failed.push((e as Error).message),
    discard: async (n) => void seen.swaps.push([n, -1]),
  };
  const r = reloading(1, o);
  const cycle = (hold?: Promise<void>) =>
    r.cycle(async (s) => {
      enter();
      try {
        await hold;
        return s;
      } finally {
        seen.busy--;
      }
    });
  return { r, seen, cycle };
}

t.test('a storm of SIGHUPs during a cycle: no reload until it ends, then one, before the next cycle', async (t) => {
  const { r, seen, cycle } = harness();
  const hold = gate();
  const first = cycle(hold.p);
  for (let i = 0; i < 200; i++) r.request();
  await tick();
  t.equal(seen.loads, 0, 'the cycle under way runs on the setup it began with');
  const next = cycle();
  hold.open();
  t.equal(await first, 1);
  t.equal(await next, 2, 'the next cycle has the reloaded setup');
  t.equal(seen.loads, 1, 'one reload for the whole storm');
  t.same(seen.swaps, [[1, 2]]);
  t.equal(seen.most, 1, 'never a reload and a cycle at once');
});

t.test('a SIGHUP during a reload makes one more after it; a failed reload keeps the setup', async (t) => {
  const holds = [gate(), gate()];
  const { r, seen, cycle } = harness(async (n) => {
    await holds[n - 2]?.p;
    if (n === 3) throw new Error('inventory.yml: line 3: bad indentation');
  });
  r.request();
  await tick();
  t.equal(seen.loads, 1, 'no cycle runs: the reload starts at once');
  for (let i = 0; i < 50; i++) r.request();
  const during = cycle();
  holds[0]!.open();
  holds[1]!.open();
  t.equal(await during, 2, 'a cycle asked for during the reload waits for it, and the storm’s reload waits for it');
  t.equal(await cycle(), 2, 'the failed reload kept setup 2');
  t.equal(seen.loads, 2);
  t.same(seen.failed, ['inventory.yml: line 3: bad indentation']);
  t.equal(r.current(), 2);
  t.equal(seen.most, 1);
});

t.test('a stop: a reload not begun never runs, one under way is discarded, close waits for it', async (t) => {
  const hold = gate();
  const { r, seen } = harness(() => hold.p);
  r.request();
  await tick();
  const closed = r.close();
  r.request();
  hold.open();
  await closed;
  t.equal(seen.loads, 1);
  t.same(seen.swaps, [[2, -1]], 'the setup loaded after the stop is discarded, never in force');
  t.equal(r.current(), 1);
});

t.test('cycles with SIGHUPs in each: one at a time, every report kept, the last one served at the stop', async (t) => {
  const { r, seen } = harness();
  const stop = new AbortController();
  const state = newCycleState();
  const reports: string[] = [];
  let n = 0;
  await runCycles(
    {
      audit: () =>
        r.cycle(async (setup) => {
          for (let i = 0; i < 20; i++) r.request();
          await tick();
          if (++n === 6) stop.abort();
          return { generated_at: `${setup}/${n}`, clusters: [], summary: {} } as unknown as Report;
        }),
      intervalMs: 0,
      jitter: 0,
      clock: { now: () => 0, monotonic: () => 0, random: () => 0.5, sleep: () => tick().then(() => undefined) },
      onCycle: (c) => void reports.push(String(c.report.generated_at)),
    },
    state,
    stop.signal,
  );
  await r.close();
  t.same(reports, ['1/1', '2/2', '3/3', '4/4', '5/5', '6/6'], 'each cycle on the setup reloaded after the one before');
  t.equal(state.cycles, 6);
  t.equal(state.last?.report.generated_at, '6/6');
  t.equal(seen.loads, 6, 'one reload per cycle however many SIGHUPs came during it');
  t.equal(seen.most, 1);
});
