/** Mapping logic: dynamic mapping of new documents and field lookup for _mapping/field. */

export type Mappings = { properties?: Record<string, FieldMapping>; [k: string]: unknown };
export type FieldMapping = {
  type?: string;
  properties?: Record<string, FieldMapping>;
  fields?: Record<string, FieldMapping>;
  [k: string]: unknown;
};

// The engine's default date_detection formats: strict_date_optional_time and yyyy/MM/dd.
const DATE_RE =
  /^(\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?|\d{4}\/\d{2}\/\d{2}( \d{2}:\d{2}:\d{2})?)$/;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The mapping the engine's dynamic mapping gives a JSON value, or null when none (null, empty array). */
export function inferField(value: unknown): FieldMapping | null {
  if (Array.isArray(value)) {
    const first = value.find((v) => v !== null && v !== undefined);
    return first === undefined ? null : inferField(first);
  }
  if (typeof value === 'string') {
    if (DATE_RE.test(value)) return { type: 'date' };
    return { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'long' : 'float' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (isObject(value)) return { properties: inferProperties(value) };
  return null;
}

function inferProperties(
  source: Record<string, unknown>,
  into: Record<string, FieldMapping> = {},
): Record<string, FieldMapping> {
  for (const [k, v] of Object.entries(source)) {
    const existing = into[k];
    if (existing) {
      // Existing fields keep their type; new sub-fields of objects are added.
      if (existing.properties && isObject(v)) inferProperties(v, existing.properties);
      continue;
    }
    const m = inferField(v);
    if (m) into[k] = m;
  }
  return into;
}

/** Adds dynamic mappings for the fields of `source` that are not mapped yet; true when something changed. */
export function mergeDynamic(mappings: Mappings, source: Record<string, unknown>): boolean {
  const before = JSON.stringify(mappings.properties ?? {});
  const props = inferProperties(source, mappings.properties ?? {});
  if (Object.keys(props).length > 0) mappings.properties = props;
  return JSON.stringify(props) !== before;
}

export interface FieldEntry {
  fullName: string;
  leaf: string;
  mapping: FieldMapping;
}

/** Every mapped field with its dotted full name, object fields and multi-fields included. */
export function listFields(mappings: Mappings): FieldEntry[] {
  const out: FieldEntry[] = [];
  const walk = (props: Record<string, FieldMapping>, prefix: string) => {
    for (const [name, m] of Object.entries(props)) {
      const fullName = prefix ? `${prefix}.${name}` : name;
      out.push({ fullName, leaf: name, mapping: m });
      if (m.properties) walk(m.properties, fullName);
      if (m.fields) walk(m.fields, fullName);
    }
  };
  walk(mappings.properties ?? {}, '');
  return out;
}

/** `*` wildcards as in index and field patterns. */
export function wildcardRe(pattern: string): RegExp {
  return new RegExp(
    '^' +
      pattern
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*') +
      '$',
  );
}
