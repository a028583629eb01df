/** A host's variables as Ansible uses them: a template or a vault value is worked out when read, not before. */
import type { Vars } from './types.ts';
import { needsWork } from './template.ts';

// the values as written (templates, vault payloads), behind each lazy variables object
const RAW = new WeakMap<Vars, Vars>();

const data = (o: Vars, k: string, value: unknown) =>
  Object.defineProperty(o, k, { value, enumerable: true, configurable: true, writable: true });

/**
 * An object with the same keys as `raw`: plain values are copied, the others resolve on first read (errors then
 * name the host and the variable), so a variable smdoctor never reads cannot stop a run.
 */
export function lazyVars(raw: Vars, resolve: (key: string) => unknown): Vars {
  const out: Vars = {};
  for (const k of Object.keys(raw)) {
    const v = raw[k];
    if (!needsWork(v)) {
      data(out, k, v);
      continue;
    }
    Object.defineProperty(out, k, {
      enumerable: true,
      configurable: true,
      get: () => {
        const r = resolve(k);
        data(out, k, r);
        return r;
      },
      set: (x: unknown) => data(out, k, x),
    });
  }
  RAW.set(out, raw);
  return out;
}

/** The variables as written, as `ansible-inventory --list` shows them (the object itself when it is not lazy). */
export function rawVars(vars: Vars): Vars {
  return RAW.get(vars) ?? vars;
}

/** Whether reading `key` would work something out (a template or a vault), rather than return it as written. */
export function isLazy(vars: Vars, key: string): boolean {
  return Object.getOwnPropertyDescriptor(vars, key)?.get !== undefined;
}
