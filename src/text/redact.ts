/** One definition of what a secret looks like, for inventory output and reports alike. */
import { currentRun } from '../base/run-scope.ts';
import { SecretMatcher, searchable } from './secret-match.ts';

export const REDACTED = '********';

const WORDS = 'password|passwd|passphrase|secret|token|credential';
const SECRET_NAME = new RegExp(`${WORDS}|pass$|^ansible_(ssh_|become_)?pass`, 'i');
// a secret-named key, then `:` or `=`, then a value: the value goes (diff markers and quotes allowed)
const SECRET_LINE = new RegExp(
  `^([+\\- ]?[ \\t]*["']?[\\w.\\-]*(?:${WORDS})[\\w.\\-]*["']?[ \\t]*[:=][ \\t]*)(\\S.*)$`,
  'gim',
);
// the same after a prefix, as in "exit 1: password: x" (a command's stderr behind smdoctor's own words)
const SECRET_INLINE = new RegExp(
  `(?<=[\\s,;({[])(["']?[\\w.\\-]*(?:${WORDS})[\\w.\\-]*["']?[ \\t]*[:=][ \\t]*)(\\S.*)$`,
  'gim',
);

// the password of userinfo in a URL (`scheme://user:pw@`), wherever a URL is printed
const URL_PASSWORD = /\b([a-z][\w+.-]*:\/\/[^\s/?#:@]*:)[^\s/?#@]+@/gi;

/**
 * Remembers a secret value, for this run, so that redactText blanks it even where no key names it (a remote error, a
 * URL). Short and digit-only values follow the rule of `searchable`; they stay blanked under their own variable.
 */
export function rememberSecret(value: unknown): void {
  if (typeof value !== 'string' && typeof value !== 'number') return;
  const v = String(value).trim();
  if (searchable(v)) currentRun().secrets.add(v);
}

// the matcher of a run's secrets, rebuilt only when a secret was added since (secrets are never removed)
const matchers = new WeakMap<Set<string>, { size: number; m: SecretMatcher }>();
function matcher(secrets: Set<string>): SecretMatcher {
  const c = matchers.get(secrets);
  if (c && c.size === secrets.size) return c.m;
  const m = new SecretMatcher(secrets);
  matchers.set(secrets, { size: secrets.size, m });
  return m;
}

/** Marks a value as a secret by what it is, not by its variable's name. */
export function markSecretValue(value: unknown): void {
  if (value === null || value === undefined || typeof value === 'object') return;
  currentRun().vaulted.add(String(value));
  if (typeof value === 'string' || typeof value === 'number') rememberSecret(value);
}

/** True for a value marked by markSecretValue. */
export function isSecretValue(value: unknown): boolean {
  const { vaulted } = currentRun();
  return (
    vaulted.size > 0 &&
    (typeof value === 'string' || typeof value === 'number') &&
    value !== '' &&
    vaulted.has(String(value))
  );
}

/** Remembers every secret-named value of a variable tree (an inventory host's vars). */
export function rememberSecrets(vars: unknown): void {
  if (!vars || typeof vars !== 'object') return;
  for (const [k, v] of Object.entries(vars)) {
    if (isSecretKey(k) && (typeof v === 'string' || typeof v === 'number')) rememberSecret(String(v));
    else rememberSecrets(v);
  }
}

/** A name that says it holds a secret; `*_file` and `*_env` only say where one is. */
export function isSecretKey(key: string): boolean {
  return !/_(file|env)$/i.test(key) && SECRET_NAME.test(key);
}

// a line that starts a secret-named key (value possibly on the following lines): marker, indent, key, rest
const SECRET_KEY_START = new RegExp(
  `^([+\\- ]?[ \\t]*)["']?[\\w.\\-]*(?:${WORDS})[\\w.\\-]*["']?[ \\t]*[:=](.*)$`,
  'i',
);

/** Column of a line's text, past one diff marker (`+`, `-` or space); null for a blank line. */
function depth(line: string): number | null {
  const body = /^[+\- ]/.test(line) ? line.slice(1) : line;
  const m = /^[ \t]*/.exec(body)![0].length;
  return m === body.replace(/\r$/, '').length ? null : m;
}

/** The same line with everything past its indentation (and diff marker) blanked. */
function blankLine(line: string): string {
  const m = /^([+\- ]?[ \t]*)(.*?)(\r?)$/.exec(line)!;
  return m[2] === '' ? line : `${m[1]}${REDACTED}${m[3]}`;
}

/** Whether a quoted value opened at `v[0]` is still open at the end of the text. */
function quoteOpen(v: string, q: string): boolean {
  for (let i = 1; i < v.length; i++) {
    if (q === '"' && v[i] === '\\') i++;
    else if (v[i] === q) {
      if (q === "'" && v[i + 1] === "'") i++;
      else return false;
    }
  }
  return true;
}

/**
 * The lines after a secret-named key that still belong to its value: block scalars (`|`, `>-`), plain and
 * quoted multi-line values and anything nested deeper are blanked, however YAML writes them.
 */
function redactContinuations(s: string): string {
  const lines = s.split('\n');
  let keyDepth = -1;
  let quote: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (quote !== null) {
      const body = line.replace(/^[+\- ]/, '');
      lines[i] = blankLine(line);
      if (!quoteOpen(`${quote}${body}`, quote)) quote = null;
      continue;
    }
    const d = depth(line);
    if (keyDepth >= 0 && (d === null || d > keyDepth)) {
      lines[i] = blankLine(line);
      continue;
    }
    keyDepth = -1;
    const m = SECRET_KEY_START.exec(line);
    if (!m || d === null) continue;
    keyDepth = d;
    const v = m[2].trim();
    if ((v.startsWith('"') || v.startsWith("'")) && quoteOpen(v, v[0])) quote = v[0];
  }
  return lines.join('\n');
}

/** Config text (or a diff of it) with every secret-named value blanked, with no memory of values seen: the same text always gives the same result. */
export function redactConfigText(s: string): string {
  return redactContinuations(s)
    .replace(SECRET_LINE, (_m, head: string) => `${head}${REDACTED}`)
    .replace(SECRET_INLINE, (_m, head: string) => `${head}${REDACTED}`);
}

/** Config text with the values of secret-named settings blanked, and every secret value this run has read. */
export function redactText(s: string): string {
  const out = redactConfigText(s).replace(URL_PASSWORD, (_m, head: string) => `${head}${REDACTED}@`);
  const { secrets } = currentRun();
  return secrets.size === 0 ? out : matcher(secrets).replace(out, REDACTED);
}

/**
 * A deep copy with every string redacted and every secret-named scalar blanked (empty values stay empty). Numbers,
 * booleans and other fields are never rewritten by value: a vaulted `2` must not blank a report's `schema_version`.
 */
export function redactDeep<T>(v: T): T {
  if (typeof v === 'string') return redactText(v) as T;
  if (Array.isArray(v)) return v.map((x) => redactDeep(x)) as T;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const blank = isSecretKey(k) && x !== null && x !== undefined && x !== '' && typeof x !== 'object';
      out[k] = blank ? REDACTED : redactDeep(x);
    }
    return out as T;
  }
  return v;
}
