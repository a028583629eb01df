/** A pack's regex runs on the linear-time engine: a pattern that backtracks exponentially elsewhere is harmless here. */
import t from 'tap';
import { linearRegExp } from '../../../src/base/linear-regex.ts';
import { regexProblem } from '../../../src/packs/load/load-regex.ts';

t.test('patterns: allowed ones compile for the linear engine, the others are refused with the reason', async (t) => {
  const cases: Array<[string, RegExp | null]> = [
    ['^-Xmx(\\d+[gGmM]?)$', null],
    ['(a+)+$', null],
    ['(?<v>\\d+)\\.(\\d+)', null],
    ['(a)\\1', /backreference \\1/],
    ['x(?=y)', /lookahead/],
    ['(?<!y)x', /lookbehind/],
    ['a{1000}', /linear-time engine cannot run it/],
    ['(', /not a valid regex/],
  ];
  for (const [source, want] of cases) {
    const problem = regexProblem(source);
    if (want) t.match(problem, want, source);
    else t.equal(problem, null, source);
  }
});

t.test('(a+)+$ against 40 a and a b: answered, where a backtracking engine would run for hours', async (t) => {
  t.equal(linearRegExp('^(a+)+$').test(`${'a'.repeat(40)}b`), false);
  t.same(linearRegExp('^-Xmx(\\d+)g$', 'm').exec('-Xms4g\n-Xmx8g\n')?.[1], '8');
});
