/** The `pick` of an `api` source: a dotted path into a JSON answer; what finds nothing says where. */

/** The value found, or the first segment that found nothing (and the path before it). */
export type Picked = { found: true; value: unknown } | { found: false; segment: string; before: string; empty?: true };

/**
 * `a.b.0.c`; `*` maps over a list or an object's values, dropping the items that lack what follows. Nothing found
 * (a missing field, `*` over nothing, or over items that all lack the rest) is not a value: it names its segment.
 * `*` over an empty list is `[]` only with `allowEmpty`.
 */
export function pickPath(value: unknown, path: string, allowEmpty = false): Picked {
  const walk = (v: unknown, parts: string[], done: string[]): Picked => {
    if (parts.length === 0) return { found: true, value: v };
    const [p, ...rest] = parts as [string, ...string[]];
    const missing = (empty?: true): Picked => ({
      found: false,
      segment: p,
      before: done.join('.'),
      ...(empty ? { empty } : {}),
    });
    if (p === '*') {
      const items = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : undefined;
      if (!items) return missing();
      if (!items.length) return allowEmpty ? { found: true, value: [] } : missing(true);
      const each = items.map((x) => walk(x, rest, [...done, p]));
      const found = each.filter((x): x is { found: true; value: unknown } => x.found);
      return found.length ? { found: true, value: found.map((x) => x.value) } : each[0]!;
    }
    if (v === null || typeof v !== 'object') return missing();
    // a flat key (`flat_settings=true`) holds dots: the longest key written as it is wins
    for (let n = parts.length; n > 1; n--) {
      const key = parts.slice(0, n).join('.');
      if (Object.hasOwn(v, key)) return walk((v as Record<string, unknown>)[key], parts.slice(n), [...done, key]);
    }
    return Object.hasOwn(v, p) ? walk((v as Record<string, unknown>)[p], rest, [...done, p]) : missing();
  };
  return path === '' ? { found: true, value } : walk(value, path.split('.'), []);
}

/** Why a pick found nothing, naming the pick and its segment. */
export function pickProblem(pick: string, p: Extract<Picked, { found: false }>): string {
  const where = p.before ? ` after '${p.before}'` : '';
  if (p.empty) return `pick ${pick} found nothing: '*'${where} is an empty list (allow_empty: true makes it [])`;
  return `pick ${pick} found nothing: no '${p.segment}'${where}`;
}

/** The value at `path`, undefined when nothing is found there. */
export function pick(value: unknown, path: string): unknown {
  const p = pickPath(value, path, true);
  return p.found ? p.value : undefined;
}
