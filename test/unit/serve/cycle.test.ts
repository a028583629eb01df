/** serve's cycles: one at a time, the last completed one kept through a failed one, a stop ends the wait. */
import t from 'tap';
import { newCycleState, runCycles, waitMs, type CycleState } from '../../../src/serve/cycle.ts';
import { systemClock } from '../../../src/base/clock.ts';
import type { Report } from '../../../src/model/index.ts';

const report = (n: number) => ({ generated_at: String(n), clusters: [], summary: {} }) as unknown as Report;

t.test('cycles never overlap, a failure keeps the last report, a stop ends it', async (t) => {
  const stop = new AbortController();
  const state: CycleState = newCycleState();
  let running = 0;
  let most = 0;
  let n = 0;
  const errors: string[] = [];
  await runCycles(
    {
      audit: async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        n++;
        if (n === 3) throw new Error('inventory unreadable');
        if (n === 5) stop.abort();
        return report(n);
      },
      intervalMs: 0,
      jitter: 0,
      clock: { ...systemClock, random: () => 0.5, monotonic: () => 0, now: () => 0 },
      onError: (e) => errors.push((e as Error).message),
    },
    state,
    stop.signal,
  );
  t.equal(most, 1, 'one cycle at a time');
  t.equal(state.cycles, 4);
  t.equal(state.last?.report.generated_at, '5');
  t.same(errors, ['inventory unreadable']);
  t.equal(state.lastError, null, 'cleared by the next good cycle');
});

t.test('the wait is the interval ± half the jitter', async (t) => {
  t.equal(
    waitMs({ intervalMs: 60_000, jitter: 0.2 }, () => 0),
    54_000,
  );
  t.equal(
    waitMs({ intervalMs: 60_000, jitter: 0.2 }, () => 1),
    66_000,
  );
  t.equal(
    waitMs({ intervalMs: 60_000, jitter: 0.2 }, () => 0.5),
    60_000,
  );
});

t.test('a stop ends a long wait at once', async (t) => {
  const stop = new AbortController();
  const slept = systemClock.sleep(3_600_000, stop.signal);
  stop.abort();
  await slept;
  t.pass('returned');
});

t.test(
  'a wall clock set back an hour each cycle: waits and durations stay right, only the report times follow it',
  async (t) => {
    const stop = new AbortController();
    const state: CycleState = newCycleState();
    let mono = 0;
    let wall = Date.UTC(2026, 0, 1);
    const slept: number[] = [];
    const finished: number[] = [];
    let n = 0;
    await runCycles(
      {
        audit: async () => {
          mono += 1500;
          if (++n === 4) stop.abort();
          return report(n);
        },
        intervalMs: 60_000,
        jitter: 0,
        clock: {
          now: () => (wall -= 3_600_000),
          monotonic: () => mono,
          random: () => 0.5,
          sleep: async (ms) => {
            slept.push(ms);
            mono += ms;
          },
        },
        onCycle: (c) => void finished.push(c.durationSeconds),
      },
      state,
      stop.signal,
    );
    t.same(slept, [60_000, 60_000, 60_000], 'every wait is the interval');
    t.same(finished, [1.5, 1.5, 1.5, 1.5], 'durations from the monotonic clock');
    t.equal(state.lastOkAt, mono, 'the age /healthz reads is monotonic');
    t.ok(state.last!.finishedAt < Date.UTC(2026, 0, 1), 'the report’s time is the wall clock’s, set back as it is');
  },
);
