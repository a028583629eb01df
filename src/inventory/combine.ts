/** Ansible's combine_vars: a later value replaces an earlier one, or with hash_behaviour=merge dictionaries merge. */

const isDict = (v: unknown): v is Record<string, unknown> => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** merge_hash(a, b): b's keys win, dictionaries on both sides merge recursively, lists are replaced. */
export function mergeHash(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isDict(out[k]) && isDict(v) ? mergeHash(out[k], v) : v;
  return out;
}

/** The value a key ends with when `next` is set over `prev`. */
export function combineValue(prev: unknown, next: unknown, merge = false): unknown {
  return merge && isDict(prev) && isDict(next) ? mergeHash(prev, next) : next;
}
