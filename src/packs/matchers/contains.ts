/** `contains: X` / `not_contains: X` / `contains_none_of: [..]`: a list (plugins by name, keystore names) or a string. */
import type { PackValue } from '../../model/index.ts';
import { fails, HOLDS, names, same, show, type Verdict } from '../judge/verdict.ts';
import { valueShape, valuesShape } from '../load/forms.ts';
import type { MatcherKind } from './kind.ts';

/** What the value holds: a list's items (by name), a string's substrings; a verdict when it is neither. */
export function holder(v: unknown): { has: (x: PackValue) => boolean } | { verdict: Verdict } {
  if (typeof v === 'string') return { has: (x) => v.includes(String(x)) };
  const items = names(v);
  if (items) return { has: (x) => items.some((i) => same(i, x)) };
  return { verdict: v === undefined ? fails('is absent') : { error: `${show(v)} is neither a list nor a string` } };
}

export const contains: MatcherKind<'contains'> = {
  doc: {
    write: '`contains: X`',
    holds: 'is a list with X (plugins by name, keystore names), or a string with X in it',
  },
  absent: 'fails',
  shape: valueShape,
  load: (r, at, v) => {
    const value = r.scalar(at, v, 'contains');
    return value === undefined ? undefined : { kind: 'contains', value };
  },
  judge: (m, v) => {
    const h = holder(v);
    if ('verdict' in h) return h.verdict;
    return h.has(m.value) ? HOLDS : fails(`${show(v)} does not contain ${show(m.value)}`);
  },
};

export const notContains: MatcherKind<'not_contains'> = {
  doc: { write: '`not_contains: X`', holds: 'is a list without X, or a string without X in it' },
  absent: 'holds',
  shape: valueShape,
  load: (r, at, v) => {
    const value = r.scalar(at, v, 'not_contains');
    return value === undefined ? undefined : { kind: 'not_contains', value };
  },
  judge: (m, v) => {
    const h = holder(v);
    if ('verdict' in h) return h.verdict;
    return h.has(m.value) ? fails(`contains ${show(m.value)}`) : HOLDS;
  },
};

export const containsNoneOf: MatcherKind<'contains_none_of'> = {
  doc: { write: '`contains_none_of: [..]`', holds: 'is a list (or a string) with none of them' },
  absent: 'holds',
  shape: valuesShape,
  load: (r, at, v) => {
    const values = r.list(at, v, 'contains_none_of', (ip, x) => r.scalar(ip, x, 'an item of contains_none_of'));
    return values && { kind: 'contains_none_of', values };
  },
  judge: (m, v) => {
    const h = holder(v);
    if ('verdict' in h) return h.verdict;
    const found = m.values.filter(h.has);
    return found.length ? fails(`contains ${found.map(show).join(', ')}`) : HOLDS;
  },
};
