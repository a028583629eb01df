/** Secrets never shown: inventory variables whose names say they hold one. */
import type { Vars } from './types.ts';

export const REDACTED = '********';

const SECRET = /pass(word)?$|secret|token|^ansible_(ssh_|become_)?pass/i;

export function isSecretKey(key: string): boolean {
  return !/_(file|env)$/i.test(key) && SECRET.test(key);
}

/** A copy with secret values replaced, nested mappings included. */
export function redactVars(vars: Vars): Vars {
  const out: Vars = {};
  for (const [k, v] of Object.entries(vars)) {
    if (isSecretKey(k) && v !== null && v !== undefined && v !== '') out[k] = REDACTED;
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = redactVars(v as Vars);
    else out[k] = v;
  }
  return out;
}
