/** Secrets never shown: inventory variables whose names say they hold one. */
import { isSecretKey, isSecretValue, REDACTED } from '../text/index.ts';
import { PyFloat } from './pyfloat.ts';
import type { Vars } from './types.ts';
import { splitUrlCredentials } from './url-credentials.ts';

/** `https://admin:pw@host` is shown as `https://admin:********@host`. */
function blankUrlPassword(s: string): string {
  const c = splitUrlCredentials(s);
  return c.password === undefined ? s : c.url.replace(/^([a-z][\w+.-]*:\/\/)/i, `$1${c.username ?? ''}:${REDACTED}@`);
}

// a float from a vault file is marked secret by its number
const secretValue = (v: unknown) => isSecretValue(v instanceof PyFloat ? v.value : v);
const isMapping = (v: unknown): v is Vars =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof PyFloat);

/** A copy with secret values replaced, nested mappings included; strings elsewhere are left as written. */
export function redactVars(vars: Vars): Vars {
  const out: Vars = {};
  for (const [k, v] of Object.entries(vars)) {
    if ((isSecretKey(k) && v !== null && v !== undefined && v !== '') || secretValue(v)) out[k] = REDACTED;
    else if (Array.isArray(v)) out[k] = v.map((x) => (secretValue(x) ? REDACTED : isMapping(x) ? redactVars(x) : x));
    else if (isMapping(v)) out[k] = redactVars(v);
    else if (typeof v === 'string') out[k] = blankUrlPassword(v);
    else out[k] = v;
  }
  return out;
}
