/** Small readers of plain YAML values that record a positioned problem and give undefined for anything wrong. */
import type { PackValue } from '../../model/index.ts';
import type { Path, Positioned } from './load-yaml.ts';

export type Obj = Record<string, unknown>;

const kind = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `a ${typeof v}`;

// C0 and C1 controls (ESC, NEL…): a one-line string from a pack has none
// eslint-disable-next-line no-control-regex -- the controls are what is refused
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex -- the same, with tab and newline allowed
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export class Reader {
  readonly doc: Positioned;
  constructor(doc: Positioned) {
    this.doc = doc;
  }

  bad(path: Path, message: string, at: 'value' | 'key' = 'value'): undefined {
    this.doc.problem(path, message, at);
    return undefined;
  }

  /** A mapping with only these keys and every required one. */
  map(
    path: Path,
    v: unknown,
    what: string,
    keys: readonly string[],
    required: readonly string[] = [],
  ): Obj | undefined {
    if (v === null || typeof v !== 'object' || Array.isArray(v))
      return this.bad(path, `${what} must be a mapping, not ${kind(v)}`);
    const o = v as Obj;
    for (const k of Object.keys(o))
      if (!keys.includes(k))
        this.bad([...path, k], `unknown key '${k}' in ${what}; allowed: ${keys.join(', ')}`, 'key');
    for (const k of required) if (!(k in o)) this.bad(path, `${what} lacks '${k}'`);
    return o;
  }

  /** A string; one line unless `lines`, matching `re` when given (then `form` says what is expected). */
  str(
    path: Path,
    v: unknown,
    what: string,
    o: { re?: RegExp; form?: string; lines?: boolean } = {},
  ): string | undefined {
    if (typeof v !== 'string') return this.bad(path, `${what} must be a string, not ${kind(v)}`);
    if (!v.trim()) return this.bad(path, `${what} is empty`);
    if ((o.lines ? CONTROLS_BUT_LINES : CONTROLS).test(v))
      return this.bad(path, `${what} holds a control character${o.lines ? '' : ' or a line break'}`);
    if (o.re && !o.re.test(v)) return this.bad(path, `${what} ${JSON.stringify(v)} is not ${o.form}`);
    return v;
  }

  oneOf<T extends string>(path: Path, v: unknown, what: string, values: readonly T[]): T | undefined {
    if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
    return this.bad(path, `${what} must be one of ${values.join(', ')}, not ${JSON.stringify(v)}`);
  }

  scalar(path: Path, v: unknown, what: string): PackValue | undefined {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return v as PackValue;
    return this.bad(path, `${what} must be a plain value (string, number, boolean or null), not ${kind(v)}`);
  }

  list<T>(path: Path, v: unknown, what: string, item: (p: Path, x: unknown) => T | undefined): T[] | undefined {
    if (!Array.isArray(v)) return this.bad(path, `${what} must be a list, not ${kind(v)}`);
    if (!v.length) return this.bad(path, `${what} is an empty list`);
    const out = v.map((x, i) => item([...path, i], x));
    return out.every((x) => x !== undefined) ? (out as T[]) : undefined;
  }

  isTrue(path: Path, v: unknown, what: string): true | undefined {
    return v === true ? true : this.bad(path, `${what} takes only true, not ${JSON.stringify(v)}`);
  }
}
