/** `at_most_of_memory: 0.5`: the value is at most that fraction of the node's `memory`. */
import * as v from 'valibot';
import { asNumber, bytes, fails, HOLDS, show } from '../judge/verdict.ts';
import type { MatcherKind } from './kind.ts';

export const atMostOfMemory: MatcherKind<'at_most_of_memory'> = {
  doc: { write: '`at_most_of_memory: 0.5`', holds: "is at most that fraction of the node's `memory`" },
  absent: 'fails',
  shape: v.pipe(v.number(), v.gtValue(0), v.maxValue(1)),
  load: (r, at, x) =>
    typeof x !== 'number' || !(x > 0 && x <= 1)
      ? r.bad(at, `at_most_of_memory must be a fraction above 0 and at most 1, not ${JSON.stringify(x)}`)
      : { kind: 'at_most_of_memory', fraction: x },
  needs: (_, n) => void (n.memory = true),
  judge: (m, x, c) => {
    const mem = c.memory();
    if (!mem.ok) return { error: mem.error };
    const n = asNumber(x);
    if (n === undefined || typeof mem.value !== 'number')
      return x === undefined ? fails('is absent') : { error: `${show(x)} is not a number` };
    const cap = mem.value * m.fraction;
    return n <= cap
      ? HOLDS
      : fails(`is ${show(x)} (${bytes(n)}), above ${m.fraction} of the node's memory (${bytes(mem.value)})`);
  },
};
