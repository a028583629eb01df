/** serve's cycles: one at a time, the last completed one kept through a failed one, a stop ends the wait. */
import t from 'tap';
import { abortableSleep, newCycleState, runCycles, waitMs, type CycleState } from '../../../src/serve/cycle.ts';
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
      random: () => 0.5,
      now: () => 0,
      wallNow: () => 0,
      sleep: abortableSleep,
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
  t.equal(waitMs({ intervalMs: 60_000, jitter: 0.2, random: () => 0 }), 54_000);
  t.equal(waitMs({ intervalMs: 60_000, jitter: 0.2, random: () => 1 }), 66_000);
  t.equal(waitMs({ intervalMs: 60_000, jitter: 0.2, random: () => 0.5 }), 60_000);
});

t.test('a stop ends a long wait at once', async (t) => {
  const stop = new AbortController();
  const slept = abortableSleep(3_600_000, stop.signal);
  stop.abort();
  await slept;
  t.pass('returned');
});
