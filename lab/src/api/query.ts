import { parsingException } from './errors.ts';

/** A hit candidate: a document of one index. */
export interface Candidate {
  index: string;
  id: string;
  source: Record<string, unknown>;
  seqNo: number;
  primaryTerm: number;
  version: number;
  order: number;
  /** Index position in the searched list, part of the `_doc` order. */
  indexPos: number;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Values at a dotted path, arrays flattened; `x.keyword` reads the text field `x`. */
export function valuesAt(candidate: Candidate, field: string): unknown[] {
  if (field === '_id') return [candidate.id];
  if (field === '_index') return [candidate.index];
  const walk = (node: unknown, parts: string[]): unknown[] => {
    if (Array.isArray(node)) return node.flatMap((n) => walk(n, parts));
    if (parts.length === 0) return node === undefined ? [] : [node];
    if (!isObject(node)) return [];
    // Dotted keys in the source (`{"a.b":1}`) are the same field as nested ones.
    for (let i = parts.length; i >= 1; i--) {
      const key = parts.slice(0, i).join('.');
      if (key in node) return walk(node[key], parts.slice(i));
    }
    return [];
  };
  const found = walk(candidate.source, field.split('.'));
  return found.length || !field.endsWith('.keyword') ? found : walk(candidate.source, field.slice(0, -8).split('.'));
}

const same = (a: unknown, b: unknown) => a === b || (a !== null && b !== null && String(a) === String(b));

function single(q: unknown, kind: string): [string, unknown] {
  if (!isObject(q) || Object.keys(q).length !== 1)
    throw parsingException(`[${kind}] query malformed, no start_object after query name`);
  const [field, spec] = Object.entries(q)[0];
  return [field, isObject(spec) && 'value' in spec ? spec.value : spec];
}

const asList = (x: unknown): unknown[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/**
 * Compiles the supported query subset: match_all, match_none, term, terms, ids,
 * exists, and bool (must/filter/should/must_not) of those. Anything else is a
 * 400 parsing_exception, as the engine answers an unknown query.
 */
export function compileQuery(q: unknown): (candidate: Candidate) => boolean {
  if (q === undefined || q === null) return () => true;
  if (!isObject(q) || Object.keys(q).length !== 1)
    throw parsingException('query malformed, must start with start_object');
  const [kind, spec] = Object.entries(q)[0];
  switch (kind) {
    case 'match_all':
      return () => true;
    case 'match_none':
      return () => false;
    case 'term': {
      const [field, value] = single(spec, kind);
      return (c) => valuesAt(c, field).some((v) => same(v, value));
    }
    case 'terms': {
      const entries = Object.entries(isObject(spec) ? spec : {}).filter(([k]) => k !== 'boost');
      if (entries.length !== 1 || !Array.isArray(entries[0][1]))
        throw parsingException('[terms] query requires one field with an array of values');
      const [field, values] = entries[0] as [string, unknown[]];
      return (c) => valuesAt(c, field).some((v) => values.some((w) => same(v, w)));
    }
    case 'ids': {
      const values = isObject(spec) ? asList(spec.values) : [];
      return (c) => values.includes(c.id);
    }
    case 'exists': {
      const field = isObject(spec) ? String(spec.field) : '';
      return (c) => valuesAt(c, field).some((v) => v !== null);
    }
    case 'bool': {
      if (!isObject(spec)) throw parsingException('[bool] malformed query');
      const must = [...asList(spec.must), ...asList(spec.filter)].map(compileQuery);
      const should = asList(spec.should).map(compileQuery);
      const not = asList(spec.must_not).map(compileQuery);
      const minShould =
        spec.minimum_should_match !== undefined ? Number(spec.minimum_should_match) : must.length ? 0 : 1;
      return (c) =>
        must.every((f) => f(c)) &&
        !not.some((f) => f(c)) &&
        (should.length === 0 || should.filter((f) => f(c)).length >= minShould);
    }
    default:
      throw parsingException(`unknown query [${kind}]`);
  }
}
