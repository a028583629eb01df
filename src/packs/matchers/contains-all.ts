/** `contains_all: [..]`: a list (or a string) with every one of them. */
import { fails, HOLDS, show } from '../judge/verdict.ts';
import { valuesShape } from '../load/forms.ts';
import { holder } from './contains.ts';
import type { MatcherKind } from './kind.ts';

export const containsAll: MatcherKind<'contains_all'> = {
  doc: { write: '`contains_all: [..]`', holds: 'is a list (or a string) with every one of them' },
  absent: 'fails',
  shape: valuesShape,
  load: (r, at, v) => {
    const values = r.list(at, v, 'contains_all', (ip, x) => r.scalar(ip, x, 'an item of contains_all'));
    return values && { kind: 'contains_all', values };
  },
  judge: (m, v) => {
    const h = holder(v);
    if ('verdict' in h) return h.verdict;
    const missing = m.values.filter((x) => !h.has(x));
    return missing.length ? fails(`lacks ${missing.map(show).join(', ')}`) : HOLDS;
  },
};
