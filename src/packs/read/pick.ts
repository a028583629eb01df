/** The `pick` of an `api` source: a dotted path into a JSON answer. */

/** `a.b.0.c`; `*` maps over a list or an object's values, dropping what is missing below it. */
export function pick(value: unknown, path: string): unknown {
  const walk = (v: unknown, parts: string[]): unknown => {
    if (parts.length === 0) return v;
    const [p, ...rest] = parts as [string, ...string[]];
    if (p === '*') {
      const items = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : undefined;
      return items?.map((x) => walk(x, rest)).filter((x) => x !== undefined);
    }
    if (v === null || typeof v !== 'object') return undefined;
    // a flat key (`flat_settings=true`) holds dots: the longest key written as it is wins
    for (let n = parts.length; n > 1; n--) {
      const key = parts.slice(0, n).join('.');
      if (Object.hasOwn(v, key)) return walk((v as Record<string, unknown>)[key], parts.slice(n));
    }
    return Object.hasOwn(v, p) ? walk((v as Record<string, unknown>)[p], rest) : undefined;
  };
  return path === '' ? value : walk(value, path.split('.'));
}
