/** `not_matches: REGEX`: the value does not match (a linear-time regex). */
import { boundedExec } from '../../base/regex-cost.ts';
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
  judge: (m, v) => {
    // a value too long for the pattern to scan cheaply is undecided, never scanned
    const hit = boundedExec(m.regex, '', String(v));
    if (hit && 'tooLong' in hit) return { error: `the value's ${hit.tooLong}` };
    return hit ? fails(`is ${show(v)}, which matches /${m.regex}/`) : HOLDS;
  },
};
