/** `matches: REGEX`: the value matches (a linear-time regex). */
import { linearRegExp } from '../../base/linear-regex.ts';
import { fails, HOLDS, show } from '../judge/verdict.ts';
import { regex, regexShape } from '../load/forms.ts';
import type { MatcherKind } from './kind.ts';

export const matches: MatcherKind<'matches'> = {
  doc: { write: '`matches: REGEX`', holds: 'matches (see Regexes)' },
  absent: 'fails',
  shape: regexShape,
  each: true,
  load: (r, at, v) => {
    const s = regex(r, at, v, 'matches');
    return s === undefined ? undefined : { kind: 'matches', regex: s };
  },
  judge: (m, v) => {
    if (v === undefined) return fails('is absent');
    return linearRegExp(m.regex).test(String(v)) ? HOLDS : fails(`is ${show(v)}, which does not match /${m.regex}/`);
  },
};
