/** `contains: X` / `not_contains: X` / `contains_none_of: [..]`: a list value (plugins by name, keystore names). */
import type { PackValue } from '../../model/index.ts';
import { fails, HOLDS, names, same, show, type Verdict } from '../judge/verdict.ts';
import { valueShape, valuesShape } from '../load/forms.ts';
import type { MatcherKind } from './kind.ts';

/** The list's item names, or the verdict when the value is no list. */
const items = (v: unknown): { items: unknown[] } | { verdict: Verdict } => {
  const i = names(v);
  return i ? { items: i } : { verdict: v === undefined ? fails('is absent') : { error: `${show(v)} is not a list` } };
};
const has = (list: unknown[], x: PackValue) => list.some((i) => same(i, x));

export const contains: MatcherKind<'contains'> = {
  doc: { write: '`contains: X`', holds: 'is a list with X (plugins by name, keystore names)' },
  shape: valueShape,
  load: (r, at, v) => {
    const value = r.scalar(at, v, 'contains');
    return value === undefined ? undefined : { kind: 'contains', value };
  },
  judge: (m, v) => {
    const l = items(v);
    if ('verdict' in l) return l.verdict;
    return has(l.items, m.value) ? HOLDS : fails(`does not contain ${show(m.value)}`);
  },
};

export const notContains: MatcherKind<'not_contains'> = {
  doc: { write: '`not_contains: X`', holds: 'is a list without X' },
  shape: valueShape,
  load: (r, at, v) => {
    const value = r.scalar(at, v, 'not_contains');
    return value === undefined ? undefined : { kind: 'not_contains', value };
  },
  judge: (m, v) => {
    const l = items(v);
    if ('verdict' in l) return l.verdict;
    return has(l.items, m.value) ? fails(`contains ${show(m.value)}`) : HOLDS;
  },
};

export const containsNoneOf: MatcherKind<'contains_none_of'> = {
  doc: { write: '`contains_none_of: [..]`', holds: 'is a list with none of them' },
  shape: valuesShape,
  load: (r, at, v) => {
    const values = r.list(at, v, 'contains_none_of', (ip, x) => r.scalar(ip, x, 'an item of contains_none_of'));
    return values && { kind: 'contains_none_of', values };
  },
  judge: (m, v) => {
    const l = items(v);
    if ('verdict' in l) return l.verdict;
    const found = m.values.filter((x) => has(l.items, x));
    return found.length ? fails(`contains ${found.map(show).join(', ')}`) : HOLDS;
  },
};
