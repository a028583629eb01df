/** The Jinja that inventories really use, resolved per host when a value is read: {{ name }}, {{ name | default('x') }}, {{ lookup('env', 'X') }}. */
import { InputError, SmdoctorError } from '../base/errors.ts';
import { isSecretValue, markSecretValue } from '../text/index.ts';
import { pythonLiteral } from './literal.ts';
import { asNumbers, PyFloat, pyFloat } from './pyfloat.ts';
import type { Vars } from './types.ts';
import { decryptInline, UnsafeValue, VaultValue, type VaultKeys } from './vault.ts';

/** The longest value a template may build, in characters. */
export const MAX_TEMPLATED = 1024 * 1024;

const MARK = /\{\{|\{%|\{#/;
const EXPR = /\{\{(.*?)\}\}/gs;
const NAME = /^[A-Za-z_]\w*$/;
const DEFAULT =
  /^([A-Za-z_]\w*)\s*\|\s*(?:default|d)\(\s*(?:'([^']*)'|"([^"]*)"|(-?\d+(?:\.\d+)?)|(true|false|True|False))\s*\)$/;
const LOOKUP_ENV = /^lookup\(\s*(?:'env'|"env")\s*,\s*(?:'([^']*)'|"([^"]*)")\s*\)$/;

export interface TemplateContext {
  host: string;
  vars: Vars;
  /** Which file each top-level variable came from. */
  origin: Record<string, string | undefined>;
  /** Variables only templates see (inventory_hostname, group_names). */
  magic: Vars;
  env: NodeJS.ProcessEnv;
  vault: VaultKeys;
}

/**
 * Whether reading the value needs work: a template to resolve, a vault value to decrypt, an unsafe mark to drop, a
 * float to read as its number.
 */
export function needsWork(v: unknown): boolean {
  if (typeof v === 'string') return MARK.test(v) && !isSecretValue(v);
  if (v instanceof VaultValue || v instanceof UnsafeValue || v instanceof PyFloat) return true;
  if (Array.isArray(v)) return v.some(needsWork);
  if (v && typeof v === 'object') return Object.values(v).some(needsWork);
  return false;
}

/** Python's repr(), as str() shows a list or a dict inside a longer string. */
function pyRepr(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (v instanceof PyFloat) return String(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  return String(v);
}

/** What ansible-core 2.14 (jinja2_native off) makes of one {{ }} in a string: None is '', the rest is str(). */
function pyStr(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  return typeof v === 'object' ? pyRepr(v) : v === true ? 'True' : v === false ? 'False' : String(v);
}

class Resolver {
  private readonly done = new Map<string, unknown>();
  private readonly stack: string[] = [];

  private readonly c: TemplateContext;
  constructor(c: TemplateContext) {
    this.c = c;
  }

  private fail(key: string, why: string): never {
    const file = this.c.origin[key];
    throw new InputError(
      `host '${this.c.host}': variable '${key}'${file ? ` (set in ${file})` : ''}: ${why}`,
      file ? { pos: { file } } : {},
    );
  }

  variable(key: string): unknown {
    if (this.done.has(key)) return this.done.get(key);
    if (this.stack.includes(key))
      this.fail(
        key,
        `templates refer to each other in a cycle: ${[...this.stack.slice(this.stack.indexOf(key)), key].join(' -> ')}`,
      );
    this.stack.push(key);
    try {
      const v = this.value(this.c.vars[key], key);
      this.done.set(key, v);
      return v;
    } finally {
      this.stack.pop();
    }
  }

  private value(v: unknown, key: string): unknown {
    if (v instanceof VaultValue) return this.decrypt(v, key);
    // a value from a vault or marked unsafe is used as written: a password may hold {{ or {#
    if (v instanceof UnsafeValue) return v.value;
    // a float stays one until the variable is read: `{{ x }}` with x 25.0 is '25.0'
    if (v instanceof PyFloat) return v;
    if (typeof v === 'string') return MARK.test(v) && !isSecretValue(v) ? this.text(v, key) : v;
    if (Array.isArray(v)) return needsWork(v) ? v.map((x) => this.value(x, key)) : v;
    if (v && typeof v === 'object')
      return needsWork(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.value(x, key)])) : v;
    return v;
  }

  private decrypt(v: VaultValue, key: string): string {
    try {
      return decryptInline(v, this.c.vault);
    } catch (e) {
      if (!(e instanceof SmdoctorError)) throw e;
      throw new InputError(`host '${this.c.host}': variable '${key}': ${e.message}`, { pos: v.pos, cause: e });
    }
  }

  private text(s: string, key: string): unknown {
    const rest = s.replace(EXPR, '');
    if (/\{%|\{#/.test(rest))
      this.fail(
        key,
        `Jinja statements and comments are not supported (only {{ name }}, {{ name | default('x') }} and {{ lookup('env', 'X') }}): ${JSON.stringify(s)}`,
      );
    const parts: unknown[] = [];
    let secret = false;
    let last = 0;
    for (const m of s.matchAll(EXPR)) {
      parts.push(s.slice(last, m.index));
      const v = this.expr(m[1].trim(), key, s);
      if (isSecretValue(v)) secret = true;
      parts.push(v);
      last = m.index! + m[0].length;
    }
    parts.push(s.slice(last));
    const out = concat(parts);
    // templates that double at each step reach gigabytes in 30 steps: stop at a size no real value has
    if (typeof out === 'string' && out.length > MAX_TEMPLATED)
      this.fail(
        key,
        `the templated value grows past ${MAX_TEMPLATED / 1024 / 1024} MiB (templates that repeat each other?)`,
      );
    if (secret) markSecretValue(out);
    return out;
  }

  private expr(e: string, key: string, s: string): unknown {
    if (NAME.test(e)) return this.lookupName(e, key, undefined);
    const d = DEFAULT.exec(e);
    if (d) {
      const lit =
        d[2] ??
        d[3] ??
        (d[4] !== undefined
          ? d[4].includes('.')
            ? pyFloat(Number(d[4]))
            : Number(d[4])
          : d[5] !== undefined
            ? d[5].toLowerCase() === 'true'
            : undefined);
      return this.lookupName(d[1], key, { value: lit });
    }
    const l = LOOKUP_ENV.exec(e);
    if (l) return this.c.env[l[1] ?? l[2]] ?? '';
    return this.fail(
      key,
      `unsupported template {{ ${e} }} in ${JSON.stringify(s)}: only {{ name }}, {{ name | default('x') }} and {{ lookup('env', 'X') }} are understood`,
    );
  }

  private lookupName(name: string, key: string, dflt: { value: unknown } | undefined): unknown {
    if (Object.hasOwn(this.c.vars, name)) return this.variable(name);
    if (Object.hasOwn(this.c.magic, name)) return this.c.magic[name];
    if (dflt) return dflt.value;
    return this.fail(key, `'${name}' is undefined`);
  }
}

/**
 * ansible-core 2.14's result of a template (jinja2_native off): text, turned back into a list, a dictionary or
 * a boolean when it reads as one. `"{{ port }}"` with port 100 is the string "100" (2.19's native types give 100).
 */
function concat(parts: unknown[]): unknown {
  const whole = parts.length === 3 && parts[0] === '' && parts[2] === '';
  // a vault value stays the value it is, not a copy that would lose its secret mark
  if (whole && typeof parts[1] === 'string' && isSecretValue(parts[1])) return parts[1];
  const out = parts.map((p, i) => (i % 2 ? pyStr(p) : p)).join('');
  if (out === 'True' || out === 'False') return out === 'True';
  if (out.startsWith('{') || out.startsWith('[')) {
    const py = pythonLiteral(out);
    if (py !== null && typeof py === 'object') return py;
  }
  return out;
}

/** A per-host resolver: each variable resolved once, when first read; a float (kept for templates' text) is a number. */
export function templateResolver(c: TemplateContext): (key: string) => unknown {
  const r = new Resolver(c);
  return (key) => asNumbers(r.variable(key));
}
