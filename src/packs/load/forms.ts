/** The forms a pack's words take (names, keys, paths, regexes, numbers with units): the loader's test and the schema's shape. */
import * as v from 'valibot';
import { regexProblem, MAX_REGEX_CHARS } from './load-regex.ts';
import type { Reader } from './load-shape.ts';
import type { Path } from './load-yaml.ts';

export const NAME_FORM = 'lower-case letters, digits and dashes (at most 63, not starting with a dash)';
export const KEY_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
export const KEY_FORM = 'a setting key (letters, digits, _ . -)';
const REL_PATH_FORM = 'a relative path under search_home (or web:PATH under web_home) without .. (forward slashes)';

// one line with something in it (the loader's `str`), as a JSON Schema pattern
const LINE = '[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*\\S[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$';

/** A setting key of a YAML file, as the schema says it. */
export const keyShape = (what: string) => v.pipe(v.string(), v.regex(KEY_RE), v.description(what));
/** A relative path under a home (`web:` for web_home), no `..`, no leading `/` or `~`. */
export const relPathShape = (what: string) =>
  v.pipe(
    v.string(),
    v.regex(new RegExp(`^(web:)?(?![/~])(?!.*\\\\)(?!(.*/)?\\.\\.(/|$))${LINE}`)),
    v.description(what),
  );
/** A regex the loader accepts: no backreference or lookaround (what a JSON Schema can see of it). */
export const regexShape = v.pipe(
  v.string(),
  v.maxLength(MAX_REGEX_CHARS),
  v.regex(new RegExp(`^(?!.*(\\\\[1-9]|\\\\k<|\\(\\?<?[=!]|\\(\\?[a-zA-Z]+[:)]))${LINE}`)),
  v.description(
    `a regex without backreferences, lookaround or inline flags (JavaScript syntax, run without flags), at most ${MAX_REGEX_CHARS} characters`,
  ),
);
export const valueShape = v.union([v.string(), v.number(), v.boolean(), v.null()]);
export const valuesShape = v.pipe(v.array(valueShape), v.minLength(1));
/** A number, or a string with a unit: `31g`, `512m`, `30d`. */
export const numberShape = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^\s*\d+(\.\d+)?\s*([kmgtKMGT][bB]?|[bB]|[dD])?\s*$/))]),
  v.description('a number; sizes with k, m, g, t (1024-based), days with d'),
);
export const trueShape = v.literal(true);

const UNIT: Record<string, number> = { b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40, d: 1 };

/** `31g` → bytes, `30d` → days, `262144` → itself; undefined when it is not such a number. */
export function unitNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  const m = typeof v === 'string' ? /^(\d+(?:\.\d+)?)\s*([kmgt]b?|b|d)?$/i.exec(v.trim()) : null;
  return m ? Number(m[1]) * UNIT[(m[2] ?? 'b')[0]!.toLowerCase()]! : undefined;
}

export const relPath = (r: Reader, p: Path, v: unknown, what: string): string | undefined => {
  const s = r.str(p, v, what);
  if (s === undefined) return undefined;
  // `web:REL` is under web_home: the same rules apply after the prefix
  const rel = s.startsWith('web:') ? s.slice(4) : s;
  if (
    !rel ||
    rel.startsWith('/') ||
    rel.startsWith('~') ||
    rel.includes('\\') ||
    rel.split('/').some((x) => x === '..')
  )
    return r.bad(p, `${what} ${JSON.stringify(s)} is not ${REL_PATH_FORM}`);
  return s;
};

/** Inline flags (`(?i)`, `(?m:…)`) that other regex dialects take: what to write instead. */
function inlineFlags(s: string): string | null {
  const f = /\(\?([a-zA-Z]+)[:)]/.exec(s)?.[1];
  if (!f) return null;
  const instead = f.includes('i')
    ? 'to match either case, write each letter as a class: [Ee]rror, [Tt][Rr][Uu][Ee]'
    : 'write the pattern without it (^ and $ already match at each line of a file)';
  return `inline flags such as (?${f}) are not JavaScript regex syntax and patterns run without flags: ${instead}`;
}

export const regex = (r: Reader, p: Path, v: unknown, what: string): string | undefined => {
  const s = r.str(p, v, what);
  const why = s === undefined ? null : (inlineFlags(s) ?? regexProblem(s));
  return why ? r.bad(p, `${what}: ${why}`) : s;
};
