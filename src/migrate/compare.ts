/** `--source compare`: every difference between smdoctor's answer and the service's, per query, with both answers. */

export interface Difference {
  /** Where the answers differ: `replacement`, `search_fields[0].status`, `query.replacement`, or `` for the whole answer. */
  path: string;
  local: unknown;
  service: unknown;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaf-level differences of two JSON values (a key or element only one side has counts as one difference). */
export function diffValues(local: unknown, service: unknown, path = ''): Difference[] {
  if (Array.isArray(local) && Array.isArray(service)) {
    const out: Difference[] = [];
    for (let i = 0; i < Math.max(local.length, service.length); i++)
      out.push(...diffValues(local[i], service[i], `${path}[${i}]`));
    return out;
  }
  if (isObj(local) && isObj(service)) {
    const out: Difference[] = [];
    const keys = [...new Set([...Object.keys(local), ...Object.keys(service)])];
    for (const k of keys) out.push(...diffValues(local[k], service[k], path ? `${path}.${k}` : k));
    return out;
  }
  return Object.is(local, service) ? [] : [{ path, local, service }];
}

/** The fields of the service's replacement objects, which both sides must agree on (our extra fields, such as
 * manual_review, are not the service's). */
const SERVICE_FIELDS = ['job_id', 'dashboard_id', 'pathInJson', 'index', 'doc_id'] as const;

function serviceFieldsOnly(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of SERVICE_FIELDS) if (k in o) out[k] = o[k];
  const q = isObj(o.query) ? o.query : {};
  out.query = { original: q.original, replacement: q.replacement };
  return out;
}

/** One stored query: its place, the differing fields, and each side's object (null when that side does not list it). */
export interface ListDifference {
  index: string;
  doc_id: string;
  pathInJson?: string;
  differences: Difference[];
  local: Record<string, unknown> | null;
  service: Record<string, unknown> | null;
}

const keyOf = (o: Record<string, unknown>) =>
  `${String(o.index)}\u0000${String(o.doc_id)}\u0000${String(o.pathInJson ?? '')}`;

/** Matches the two lists by index, document and path; a query only one side lists is a difference too. */
export function compareLists(
  local: ReadonlyArray<Record<string, unknown>>,
  service: ReadonlyArray<Record<string, unknown>>,
): ListDifference[] {
  const byKey = new Map<string, { local: Record<string, unknown> | null; service: Record<string, unknown> | null }>();
  for (const o of local) byKey.set(keyOf(o), { local: o, service: null });
  for (const o of service) {
    const k = keyOf(o);
    const e = byKey.get(k);
    if (e) e.service = o;
    else byKey.set(k, { local: null, service: o });
  }
  const out: ListDifference[] = [];
  for (const { local: l, service: s } of byKey.values()) {
    const any = (l ?? s)!;
    const differences =
      l && s
        ? diffValues(serviceFieldsOnly(l), serviceFieldsOnly(s))
        : [{ path: '', local: l ? serviceFieldsOnly(l) : null, service: s ? serviceFieldsOnly(s) : null }];
    if (differences.length === 0) continue;
    out.push({
      index: String(any.index),
      doc_id: String(any.doc_id),
      ...(any.pathInJson !== undefined ? { pathInJson: String(any.pathInJson) } : {}),
      differences,
      local: l,
      service: s,
    });
  }
  return out;
}

const show = (v: unknown) =>
  v === undefined ? '(absent)' : v === null ? '(not listed)' : typeof v === 'string' ? v : JSON.stringify(v);

/** Text lines of one difference: the field, then each side's value. */
export function differenceLines(d: Difference, indent = '    '): string[] {
  return [
    `${indent}${d.path || 'listed'}:`,
    `${indent}  local:   ${show(d.local)}`,
    `${indent}  service: ${show(d.service)}`,
  ];
}
