/** A source as findings name it: `setting a.b`, `api _nodes pick nodes.*.jvm`, `file config/x`. */
import type { PackSource } from '../../model/index.ts';

export function describeSource(s: PackSource): string {
  const field = s.field ? ` (${s.field})` : '';
  if (s.kind === 'api') return `api ${s.path} pick ${s.pick}${field}`;
  if (s.kind === 'file') return `file ${s.path}${field}`;
  const arg = Object.entries(s).find(([k]) => k !== 'kind' && k !== 'field')?.[1];
  return `${s.kind}${arg === undefined ? '' : ` ${typeof arg === 'string' ? arg : JSON.stringify(arg)}`}${field}`;
}
