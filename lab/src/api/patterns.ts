import { indexNotFound } from './errors.ts';
import { wildcardRe } from './fields.ts';

export interface ResolveOptions {
  /** ignore_unavailable: drop missing concrete names instead of 404. */
  ignoreUnavailable?: boolean;
  /** What an absent pattern means: `_all` (APIs) or every index including dot-prefixed ones (_cat). */
  allIncludesHidden?: boolean;
  /** Alias → the indices it points to: a name or pattern that matches an alias resolves to them. */
  aliases?: Record<string, string[]>;
}

/**
 * Resolves `a,b*,-c` against the existing names. `*` and `_all` skip dot-prefixed
 * indices; a pattern that itself starts with a dot (`.sm_*`) matches them.
 */
export function resolveIndices(pattern: string | undefined, names: string[], opts: ResolveOptions = {}): string[] {
  const parts = (pattern ?? '_all')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const out = new Set<string>();
  for (const raw of parts.length ? parts : ['_all']) {
    const exclude = raw.startsWith('-') && out.size > 0;
    const p = exclude ? raw.slice(1) : raw;
    let matched: string[];
    const aliases = opts.aliases ?? {};
    if (p === '_all' || p === '*') {
      matched = names.filter((n) => opts.allIncludesHidden || !n.startsWith('.'));
    } else if (p.includes('*')) {
      const re = wildcardRe(p);
      const visible = (n: string) => re.test(n) && (p.startsWith('.') || !n.startsWith('.'));
      matched = [
        ...names.filter(visible),
        ...Object.keys(aliases)
          .filter(visible)
          .flatMap((a) => aliases[a]),
      ];
    } else if (aliases[p]) {
      matched = aliases[p];
    } else {
      if (!names.includes(p)) {
        if (exclude || opts.ignoreUnavailable) continue;
        throw indexNotFound(p);
      }
      matched = [p];
    }
    for (const m of matched) exclude ? out.delete(m) : out.add(m);
  }
  return [...out].sort();
}
