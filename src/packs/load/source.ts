/** `read:` (or a `same_as:` operand): exactly one source of the registry, and `field` where it gives objects. */
import * as v from 'valibot';
import type { PackSource, PackSourceKind } from '../../model/index.ts';
import { SOURCE_KINDS, sourceKind } from '../sources/registry.ts';
import type { Reader } from './load-shape.ts';
import type { Path } from './load-yaml.ts';

const FIELD_RE = /^[A-Za-z0-9_]+$/;
const BARE = SOURCE_KINDS.filter((k) => !sourceKind(k).load);
/** Sources read once per cluster: the check is `each: cluster`. */
export const CLUSTER_SOURCES: readonly string[] = SOURCE_KINDS.filter((k) => sourceKind(k).cluster);

/** The shape of a source, as schema/pack.json says it (`$defs/source`). */
export const sourceRef: v.GenericSchema = v.union([
  v.picklist(BARE),
  ...SOURCE_KINDS.map((k) => {
    const m = sourceKind(k);
    const arg = m.shape ?? v.pipe(v.nullable(v.literal(true)), v.description(`${k}: takes no argument`));
    const field = v.pipe(v.string(), v.regex(FIELD_RE), v.description('picks one field of an object value'));
    return v.strictObject(m.object ? { [k]: arg, field: v.optional(field) } : { [k]: arg });
  }),
]);

export function readSourceAt(r: Reader, p: Path, x: unknown): PackSource | undefined {
  if (typeof x === 'string') {
    if ((BARE as string[]).includes(x)) return { kind: x } as PackSource;
    return r.bad(p, `source '${x}' needs an argument or is unknown; sources: ${SOURCE_KINDS.join(', ')}`);
  }
  const o = r.map(p, x, 'a source', [...SOURCE_KINDS, 'field']);
  if (!o) return undefined;
  const kinds = Object.keys(o).filter((k): k is PackSourceKind => (SOURCE_KINDS as string[]).includes(k));
  if (kinds.length !== 1)
    return r.bad(
      p,
      kinds.length ? `one source only, not ${kinds.join(' and ')}` : `no source; sources: ${SOURCE_KINDS.join(', ')}`,
    );
  const k = kinds[0]!;
  const m = sourceKind(k);
  const at = [...p, k];
  let field: string | undefined;
  if ('field' in o) {
    field = r.str([...p, 'field'], o.field, 'field', { re: FIELD_RE, form: 'a field name' });
    if (field !== undefined && !m.object) return r.bad([...p, 'field'], `'${k}' gives no object to pick a field of`);
  }
  // a bare source in a mapping: `{plugins: true}` (or empty)
  const src = m.load
    ? m.load(r, at, o[k])
    : o[k] === true || o[k] === null
      ? ({ kind: k } as PackSource)
      : r.bad(at, `'${k}' takes no argument (write true)`);
  return src && ((field !== undefined ? { ...src, field } : src) as PackSource);
}
