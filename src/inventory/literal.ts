/** Python's ast.literal_eval and shlex.split, as far as Ansible's INI plugin relies on them. */
import { pyFloat, PyFloat } from './pyfloat.ts';

const NOPE = Symbol('not a literal');

class Reader {
  i = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  skip(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\f') this.i++;
      else if (c === '#')
        this.i = this.s.length; // a comment runs to the end of the line
      else return;
    }
  }
  peek(): string | undefined {
    return this.s[this.i];
  }
  eat(tok: string): boolean {
    this.skip();
    if (this.s.startsWith(tok, this.i)) {
      this.i += tok.length;
      return true;
    }
    return false;
  }
}

const NUM =
  /^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*)?\.\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.?(?:[eE][+-]?\d(?:_?\d)*)?)(?![\w.])/;

function number(r: Reader): unknown {
  const m = NUM.exec(r.s.slice(r.i));
  if (!m) return NOPE;
  const t = m[0].replace(/_/g, '');
  r.i += m[0].length;
  if (/^0[xob]/i.test(t)) return Number(t.toLowerCase());
  if (/[.eE]/.test(t)) return pyFloat(Number(t));
  // Python 3 refuses decimal integers with leading zeros (other than 0 itself)
  if (/^0\d/.test(t) && /[1-9]/.test(t)) return NOPE;
  return Number(t);
}

const ESC: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\n': '',
};

function stringLit(r: Reader): unknown {
  const m = /^([rRbBuU]{0,2})('''|"""|'|")/.exec(r.s.slice(r.i));
  if (!m || /u.|.u/i.test(m[1]) || (m[1].length === 2 && !/r/i.test(m[1]))) return NOPE;
  const raw = /r/i.test(m[1]);
  const q = m[2];
  r.i += m[0].length;
  let out = '';
  while (r.i < r.s.length) {
    if (r.s.startsWith(q, r.i)) {
      r.i += q.length;
      return out;
    }
    const c = r.s[r.i++];
    if (c === '\\' && r.i < r.s.length) {
      const n = r.s[r.i++];
      if (raw) out += c + n;
      else if (n === 'x' && /^[0-9a-f]{2}/i.test(r.s.slice(r.i))) {
        out += String.fromCharCode(parseInt(r.s.slice(r.i, r.i + 2), 16));
        r.i += 2;
      } else out += ESC[n] ?? c + n;
    } else out += c;
  }
  return NOPE;
}

function seq(r: Reader, close: string, tuple: boolean): unknown {
  const out: unknown[] = [];
  let commas = 0;
  for (;;) {
    if (r.eat(close)) break;
    const v = value(r);
    if (v === NOPE) return NOPE;
    out.push(v);
    if (r.eat(',')) commas++;
    else if (r.eat(close)) break;
    else return NOPE;
  }
  // (x) is just x; (x,) is a tuple
  if (tuple && out.length === 1 && commas === 0) return out[0];
  return out;
}

function dict(r: Reader): unknown {
  const out: Record<string, unknown> = {};
  const set: unknown[] = [];
  for (;;) {
    if (r.eat('}')) break;
    const k = value(r);
    if (k === NOPE) return NOPE;
    if (r.eat(':')) {
      const v = value(r);
      if (v === NOPE || set.length) return NOPE;
      out[String(k)] = v;
    } else set.push(k);
    if (r.eat(',')) continue;
    if (r.eat('}')) break;
    return NOPE;
  }
  return set.length ? set : out;
}

function value(r: Reader): unknown {
  r.skip();
  const c = r.peek();
  if (c === undefined) return NOPE;
  if (c === '-' || c === '+') {
    r.i++;
    const v = value(r);
    if (v instanceof PyFloat) return c === '-' ? pyFloat(-v.value) : v;
    return typeof v === 'number' ? (c === '-' ? -v : v) : NOPE;
  }
  if (c === '[') return (r.i++, seq(r, ']', false));
  if (c === '(') return (r.i++, seq(r, ')', true));
  if (c === '{') return (r.i++, dict(r));
  if (/[0-9.]/.test(c)) return number(r);
  const word = /^[A-Za-z_]\w*/.exec(r.s.slice(r.i))?.[0];
  if (word === 'True' || word === 'False' || word === 'None') {
    r.i += word.length;
    return word === 'True' ? true : word === 'False' ? false : null;
  }
  let s = stringLit(r);
  if (s === NOPE) return NOPE;
  // adjacent string literals concatenate
  for (;;) {
    r.skip();
    const save = r.i;
    const more = stringLit(r);
    if (more === NOPE) {
      r.i = save;
      return s;
    }
    s = (s as string) + (more as string);
  }
}

/** ast.literal_eval(text), or the text itself when Python would refuse it (as Ansible's INI plugin does). */
export function pythonLiteral(text: string): unknown {
  if (/^\s/.test(text)) return text; // Python: unexpected indent
  const r = new Reader(text);
  const v = value(r);
  r.skip();
  return v === NOPE || r.i < text.length ? text : v;
}

/** shlex.split(line, comments=True) in POSIX mode; throws on an unclosed quote. */
export function shlexSplit(line: string): string[] {
  const out: string[] = [];
  let tok = '';
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (/\s/.test(c)) {
      if (has) out.push(tok);
      tok = '';
      has = false;
    } else if (c === '#') break;
    else if (c === '\\') {
      if (i + 1 < line.length) tok += line[++i];
      has = true;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      let j = i + 1;
      if (c === "'") {
        if (end < 0) throw new Error('No closing quotation');
        tok += line.slice(j, end);
        i = end;
      } else {
        for (; j < line.length && line[j] !== '"'; j++) {
          if (line[j] === '\\' && (line[j + 1] === '"' || line[j + 1] === '\\')) j++;
          tok += line[j];
        }
        if (j >= line.length) throw new Error('No closing quotation');
        i = j;
      }
      has = true;
    } else {
      tok += c;
      has = true;
    }
  }
  if (has) out.push(tok);
  return out;
}
