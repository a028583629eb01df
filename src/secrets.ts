/** One definition of what a secret looks like, for inventory output and reports alike. */

export const REDACTED = '********';

const WORDS = 'password|passwd|passphrase|secret|token|credential';
const SECRET_NAME = new RegExp(`${WORDS}|pass$|^ansible_(ssh_|become_)?pass`, 'i');
// a secret-named key, then `:` or `=`, then a value: the value goes (diff markers and quotes allowed)
const SECRET_LINE = new RegExp(`^([+\\- ]?[ \\t]*["']?[\\w.\\-]*(?:${WORDS})[\\w.\\-]*["']?[ \\t]*[:=][ \\t]*)(\\S.*)$`, 'gim');

/** A name that says it holds a secret; `*_file` and `*_env` only say where one is. */
export function isSecretKey(key: string): boolean {
  return !/_(file|env)$/i.test(key) && SECRET_NAME.test(key);
}

/** Config text with the values of secret-named settings blanked. */
export function redactText(s: string): string {
  return s.replace(SECRET_LINE, (_m, head: string) => `${head}${REDACTED}`);
}

/** A deep copy with every string redacted and every secret-named scalar blanked (empty values stay empty). */
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
