/** Secrets never shown: inventory variables whose names say they hold one. */
import { isSecretKey, isSecretValue, REDACTED } from '../secrets.ts';
import type { Vars } from './types.ts';

export { isSecretKey, REDACTED };

/** A copy with secret values replaced, nested mappings included; strings elsewhere are left as written. */
export function redactVars(vars: Vars): Vars {
  const out: Vars = {};
  for (const [k, v] of Object.entries(vars)) {
    if ((isSecretKey(k) && v !== null && v !== undefined && v !== '') || isSecretValue(v)) out[k] = REDACTED;
    else if (Array.isArray(v)) out[k] = v.map((x) => (isSecretValue(x) ? REDACTED : x && typeof x === 'object' && !Array.isArray(x) ? redactVars(x as Vars) : x));
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = redactVars(v as Vars);
    else out[k] = v;
  }
  return out;
}
