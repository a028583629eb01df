/** serve's /healthz: 200 only while the last cycle completed and is recent; a failed or stuck cycle is a 503 with why. */
import t from 'tap';
import { health, staleAfterMs } from '../../../src/serve/http.ts';
import { newCycleState, runCycles, type CycleState } from '../../../src/serve/cycle.ts';
import type { Report } from '../../../src/model/index.ts';
import type { Gate } from '../../../src/serve/auth.ts';

const report = { generated_at: 'x', clusters: [], summary: {} } as unknown as Report;

/** The state after the cycles `outcomes` (true: completed, else the error), cycle k ending at monotonic 1000·k. */
async function after(outcomes: Array<true | string>): Promise<CycleState> {
  const state = newCycleState();
  const stop = new AbortController();
  let k = 0;
  let clock = 0;
  await runCycles(
    {
      audit: async () => {
        const o = outcomes[k++]!;
        clock = 1000 * k;
        if (k === outcomes.length) stop.abort();
        if (o !== true) throw new TypeError(o);
        return report;
      },
      intervalMs: 60_000,
      jitter: 0,
      clock: { random: () => 0.5, monotonic: () => clock, now: () => clock, sleep: async () => {} },
    },
    state,
    stop.signal,
  );
  return state;
}

const at = (state: CycleState, now: number, gate?: Gate) =>
  health({ state, now: () => now, intervalMs: 60_000, ...(gate ? { gate } : {}) });

t.test('starting, ok, then a failed cycle is a 503 with its reason until a good one', async (t) => {
  t.same(at(newCycleState(), 0), { ok: false, text: 'starting: no cycle has completed yet' });
  t.same(at(await after([true]), 5000), { ok: true, text: 'ok' });
  const failed = await after([true, 'Do not know how to serialize a BigInt']);
  t.same(at(failed, 4000), {
    ok: false,
    text: 'failing: the last cycle failed 2 s ago: Do not know how to serialize a BigInt; the last report (3 s ago) stays served',
  });
  t.equal(failed.failures, 1);
  t.match(at(await after(['x', 'y']), 2000).text, /^failing: .*: y; no cycle has completed yet$/);
  t.same(at(await after([true, 'boom', true]), 3000), { ok: true, text: 'ok' }, 'cleared by the next good cycle');
});

t.test('a cycle that never ends: stale once the last completed one is too old', async (t) => {
  const s = await after([true]);
  const limit = staleAfterMs(60_000, 1000);
  t.equal(limit, 243_000, 'three intervals and three cycles of 1 s, and a minute');
  t.equal(at(s, 1000 + limit).ok, true);
  t.same(at(s, 1000 + limit + 1), {
    ok: false,
    text: 'stale: the last cycle completed 243 s ago, more than 243 s (the cycle under way is stuck)',
  });
});

t.test('the reason is one line, redacted of controls, and not told when serve asks for credentials', async (t) => {
  const s = await after([true, 'bad\n\u001b[31mline\u0007 https://u:pw@h/x']);
  const h = at(s, 2000);
  t.notMatch(h.text, /[\u0000-\u001f\u007f]/);
  t.notMatch(h.text, /pw@/);
  const gated = at(s, 2000, { admits: async () => true } as unknown as Gate);
  t.match(gated.text, /failing: the last cycle failed 0 s ago: see the serve log/);
  t.notMatch(gated.text, /line/);
});
