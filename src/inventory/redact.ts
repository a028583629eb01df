/** Secrets never shown: inventory variables whose names say they hold one. */
import { isSecretKey, isSecretValue, REDACTED } from '../secrets.ts';
import type { Vars } from './types.ts';
import { splitUrlCredentials } from './url-credentials.ts';

/** `https://admin:pw@host` is shown as `https://admin:********@host`. */
function blankUrlPassword(s: string): string {
  const c = splitUrlCredentials(s);
  return c.password === undefined ? s : c.url.replace(/^([a-z][\w+.-]*:\/\/)/i, `$1${c.username ?? ''}:${REDACTED}@`);
}

export { isSecretKey, REDACTED };

/** A copy with secret values replaced, nested mappings included; strings elsewhere are left as written. */
export function redactVars(vars: Vars): Vars {
  const out: Vars = {};
  for (const [k, v] of Object.entries(vars)) {
    if ((isSecretKey(k) && v !== null && v !== undefined && v !== '') || isSecretValue(v)) out[k] = REDACTED;
    else if (Array.isArray(v))
      out[k] = v.map((x) =>
        isSecretValue(x) ? REDACTED : x && typeof x === 'object' && !Array.isArray(x) ? redactVars(x as Vars) : x,
      );
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = redactVars(v as Vars);
    else if (typeof v === 'string') out[k] = blankUrlPassword(v);
    else out[k] = v;
  }
  return out;
}
