/** `not_matches: REGEX`: the value does not match (a linear-time regex). */
import { linearRegExp } from '../../base/linear-regex.ts';
import { fails, HOLDS, show } from '../judge/verdict.ts';
import { regex, regexShape } from '../load/forms.ts';
import type { MatcherKind } from './kind.ts';

export const notMatches: MatcherKind<'not_matches'> = {
  doc: { write: '`not_matches: REGEX`', holds: 'does not match' },
  absent: 'holds',
  shape: regexShape,
  each: true,
  load: (r, at, v) => {
    const s = regex(r, at, v, 'not_matches');
    return s === undefined ? undefined : { kind: 'not_matches', regex: s };
  },
  judge: (m, v) => (linearRegExp(m.regex).test(String(v)) ? fails(`is ${show(v)}, which matches /${m.regex}/`) : HOLDS),
};
