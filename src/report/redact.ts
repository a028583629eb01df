/** Last line of defence: secret-looking settings in config text (diff context, evidence) never reach a report. */

// a key naming a secret, then `:` or `=`, then a value: the value goes
const SECRET_LINE = /^([+\- ]?[ \t]*["']?[\w.\-]*(?:password|passwd|secret|token|passphrase|credential)[\w.\-]*["']?[ \t]*[:=][ \t]*)(\S.*)$/gim;
const SECRET_KEY = /password|passwd|secret|token|passphrase|credential/i;

export const REDACTED = '<redacted>';

export function redactText(s: string): string {
  return s.replace(SECRET_LINE, (_m, head: string) => `${head}${REDACTED}`);
}

/** A deep copy with every string redacted and every secret-named field blanked. */
export function redactDeep<T>(v: T): T {
  if (typeof v === 'string') return redactText(v) as T;
  if (Array.isArray(v)) return v.map((x) => redactDeep(x)) as T;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = SECRET_KEY.test(k) && typeof x !== 'object' ? REDACTED : redactDeep(x);
    return out as T;
  }
  return v;
}
