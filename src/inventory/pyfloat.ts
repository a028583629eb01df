/** Python's floats, which Ansible shows as Python writes them: `25.0`, `1e+16`, `Infinity` (JavaScript: 25, 1e16, null). */
import { randomBytes } from 'node:crypto';
import { JSON_TEXT } from '../base/json-text.ts';

/** repr(x): the shortest digits that read back, fixed from 1e-4 up to 1e16, else with a two-digit exponent. */
function repr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (!Number.isFinite(x)) return `${sign}inf`;
  const [mantissa, e] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(e);
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  return `${sign}${digits.slice(0, exp + 1).padEnd(exp + 1, '0')}.${digits.slice(exp + 1) || '0'}`;
}

/**
 * A float as written in an inventory whose Python text is not JavaScript's: shown as Ansible shows it, read by
 * smdoctor as its number (`asNumbers`). Floats JavaScript writes the same (2.5) stay plain numbers.
 */
export class PyFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }

  /** str() and repr(), as a template or a mapping key shows it. */
  toString(): string {
    return repr(this.value);
  }

  valueOf(): number {
    return this.value;
  }

  toJSON(): number {
    return this.value;
  }

  /** json.dumps' text, as ansible-inventory writes it. */
  [JSON_TEXT](): string {
    const x = this.value;
    if (Number.isNaN(x)) return 'NaN';
    return Number.isFinite(x) ? repr(x) : x > 0 ? 'Infinity' : '-Infinity';
  }
}

/** A float read from an inventory: a PyFloat where Python writes it otherwise than JavaScript, else the number. */
export function pyFloat(x: number): number | PyFloat {
  return repr(x) === String(x) ? x : new PyFloat(x);
}

/** The value with every PyFloat replaced by its number (containers copied only where one was found). */
export function asNumbers(v: unknown): unknown {
  if (v instanceof PyFloat) return v.value;
  if (Array.isArray(v)) {
    const out = v.map(asNumbers);
    return out.some((x, i) => !Object.is(x, v[i])) ? out : v;
  }
  const proto: unknown = typeof v === 'object' && v !== null ? Object.getPrototypeOf(v) : undefined;
  if (proto === Object.prototype || proto === null) {
    let changed = false;
    const out = Object.fromEntries(
      Object.entries(v as object).map(([k, x]) => {
        const n = asNumbers(x);
        changed ||= !Object.is(n, x);
        return [k, n];
      }),
    );
    return changed ? out : v;
  }
  return v;
}

// a string (skipped), or a JSON number with a fraction or an exponent, or Python's Infinity and NaN
const FLOAT_TOKEN = /("(?:[^"\\]|\\.)*")|-?(?:0|[1-9]\d*)(?:\.\d+(?:[eE][-+]?\d+)?|[eE][-+]?\d+)|-?Infinity|NaN/g;

/** json.loads(text), as Ansible reads a script's answer: floats are floats (PyFloat where needed). Throws on bad JSON. */
export function parsePyJson(text: string): unknown {
  const tag = `\u0000${randomBytes(6).toString('hex')}:`;
  // each float becomes a tagged string, read back as its number: the tag is random, no string of the text has it
  const marked = text.replace(FLOAT_TOKEN, (m, str?: string) => str ?? JSON.stringify(tag + m));
  return JSON.parse(marked, (_k, v: unknown) =>
    typeof v === 'string' && v.startsWith(tag) ? pyFloat(Number(v.slice(tag.length))) : v,
  );
}
