import t from 'tap';
import { compilePattern, matchPattern } from '../../../src/sml/patterns.ts';

t.test('glob matching', async (t) => {
  const rows: Array<[string, string, boolean]> = [
    ['logs-*', 'logs-2024', true],
    ['logs-*', 'log', false],
    ['*-2024.*', 'win-2024.01', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['*', '', true],
    ['x', 'x', true],
    ['x', 'xy', false],
    ['a**b', 'ab', true],
  ];
  for (const [p, n, want] of rows) t.equal(matchPattern(compilePattern(p), n), want, `${p} ~ ${n}`);
  t.equal(compilePattern('-x').exclude, true);
});

t.test('no backtracking blow-up', async (t) => {
  const p = compilePattern(`${'a*'.repeat(40)}b`);
  t.equal(matchPattern(p, 'a'.repeat(5000)), false);
});
