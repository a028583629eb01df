/** The Jinja that inventories really use, resolved per host: {{ name }}, {{ name | default('x') }}, {{ lookup('env', 'X') }}. */
import { InputError } from '../errors.ts';
import { isSecretValue, markSecretValue } from '../secrets.ts';
import type { Vars } from './types.ts';

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
}

export function hasTemplate(v: unknown): boolean {
  if (typeof v === 'string') return MARK.test(v);
  if (Array.isArray(v)) return v.some(hasTemplate);
  if (v && typeof v === 'object') return Object.values(v).some(hasTemplate);
  return false;
}

/** Python's str() of a value placed inside a longer string. */
function pyStr(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

class Resolver {
  private readonly done = new Map<string, unknown>();
  private readonly stack: string[] = [];

  constructor(private readonly c: TemplateContext) {}

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
    const v = this.value(this.c.vars[key], key);
    this.stack.pop();
    this.done.set(key, v);
    return v;
  }

  private value(v: unknown, key: string): unknown {
    if (typeof v === 'string') return MARK.test(v) ? this.text(v, key) : v;
    if (Array.isArray(v)) return hasTemplate(v) ? v.map((x) => this.value(x, key)) : v;
    if (v && typeof v === 'object')
      return hasTemplate(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.value(x, key)])) : v;
    return v;
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
    const whole = parts.length === 3 && parts[0] === '' && parts[2] === '';
    const out = whole ? parts[1] : parts.map((p, i) => (i % 2 ? pyStr(p) : p)).join('');
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
        (d[4] !== undefined ? Number(d[4]) : d[5] !== undefined ? d[5].toLowerCase() === 'true' : undefined);
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

/** Every variable of one host with its templates resolved (values without templates are kept as they are). */
export function resolveTemplates(c: TemplateContext): Vars {
  const r = new Resolver(c);
  const out: Vars = {};
  for (const k of Object.keys(c.vars)) out[k] = r.variable(k);
  return out;
}
