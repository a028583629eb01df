/** Index patterns of `source`: `*` wildcards, comma lists, `-name` exclusions (as the engine reads them). */

/** A compiled pattern: the literal parts between `*`s, matched left to right without backtracking blow-up. */
export interface IndexPattern {
  text: string;
  exclude: boolean;
  parts: string[];
  /** No `*` at all: exact comparison. */
  exact: boolean;
}

export function compilePattern(text: string): IndexPattern {
  const exclude = text.startsWith('-') && text.length > 1;
  const body = exclude ? text.slice(1) : text;
  return {
    text,
    exclude,
    parts: body === '_all' ? ['', ''] : body.split('*'),
    exact: !body.includes('*') && body !== '_all',
  };
}

/** Greedy glob match: linear in the name for each literal part. */
export function matchPattern(p: IndexPattern, name: string): boolean {
  const parts = p.parts;
  if (p.exact) return name === parts[0];
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  const stop = name.length - last.length;
  for (let k = 1; k < parts.length - 1; k++) {
    const found = name.indexOf(parts[k], at);
    if (found < 0 || found + parts[k].length > stop) return false;
    at = found + parts[k].length;
  }
  return true;
}

/** Indices matched by the list, in the order given; exclusions apply to what the earlier patterns matched. */
export function matchIndices(patterns: readonly IndexPattern[], indices: readonly string[]): string[] {
  const picked = new Set<string>();
  for (const p of patterns) {
    for (const name of indices) {
      if (!matchPattern(p, name)) continue;
      if (p.exclude) picked.delete(name);
      else picked.add(name);
    }
  }
  return [...picked];
}

/** `logs-*, "metrics-*"` style values may themselves hold commas: split them. */
export function splitPatterns(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
