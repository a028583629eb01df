/**
 * Every known secret, in every form smdoctor may print it (raw, JSON-escaped, shell-quoted, URL-encoded), found in
 * one pass over the output: the cost is the output's length, not secrets × output.
 */

/** A digit-only secret shorter than this is never searched for in output: it would blank ports, counts, versions. */
export const MIN_DIGITS = 6;
/** Any other secret shorter than this is not searched for either: it would blank ordinary words. */
export const MIN_CHARS = 4;

// YAML's and Python's words for booleans and null: a vaulted `true` must not blank every `true` printed
const SCALAR_WORD = /^(true|false|yes|no|on|off|null|none|~)$/i;

/** Whether a value is searched for in output at all (the rule for short, numeric and boolean secrets). */
export function searchable(s: string): boolean {
  if (SCALAR_WORD.test(s)) return false;
  return /^\d+$/.test(s) ? s.length >= MIN_DIGITS : s.length >= MIN_CHARS;
}

/** The forms a secret takes once escaped: inside JSON, inside shell quotes, inside a URL. */
export function secretForms(s: string): string[] {
  const forms = new Set<string>([s]);
  const json = JSON.stringify(s).slice(1, -1);
  forms.add(json);
  forms.add(JSON.stringify(json).slice(1, -1)); // a JSON string quoted inside another (an error inside a report)
  forms.add(s.replaceAll("'", `'\\''`)); // inside '…', as POSIX shells quote a quote
  forms.add(s.replaceAll("'", `'"'"'`));
  forms.add(s.replace(/["\\$`]/g, '\\$&')); // inside "…"
  const uri = encodeURIComponent(s);
  forms.add(uri);
  forms.add(uri.replaceAll('%20', '+'));
  forms.add(encodeURI(s));
  for (const f of [...forms]) forms.add(f.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  return [...forms].filter(searchable);
}

/** A 32-bit key of the first MIN_CHARS code units at `i` (collisions are checked by startsWith). */
function key(s: string, i: number): number {
  let h = 0;
  for (let k = 0; k < MIN_CHARS; k++) h = (Math.imul(h, 31) + s.charCodeAt(i + k)) | 0;
  return h;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

export class SecretMatcher {
  // candidates by the key of their first characters, longest first so the longest form wins
  private readonly byKey = new Map<number, string[]>();
  // digit-only forms, which match only as a whole number (123456 is not blanked inside 91234567)
  private readonly numbers = new Set<string>();

  constructor(secrets: Iterable<string>) {
    for (const s of secrets) {
      for (const f of secretForms(s)) {
        const k = key(f, 0);
        const list = this.byKey.get(k) ?? [];
        if (!list.includes(f)) list.push(f);
        if (/^\d+$/.test(f)) this.numbers.add(f);
        this.byKey.set(k, list);
      }
    }
    for (const list of this.byKey.values()) list.sort((a, b) => b.length - a.length);
  }

  /** `text` with every occurrence of every form replaced by `mask`, in one left-to-right pass. */
  replace(text: string, mask: string): string {
    if (this.byKey.size === 0 || text.length < MIN_CHARS) return text;
    let out = '';
    let last = 0;
    const end = text.length - MIN_CHARS;
    for (let i = 0; i <= end;) {
      const hit = this.at(text, i);
      if (hit === 0) {
        i++;
        continue;
      }
      out += text.slice(last, i) + mask;
      i += hit;
      last = i;
    }
    return last === 0 ? text : out + text.slice(last);
  }

  /** Length of the longest form starting at `i`, or 0; a digit-only form counts only as a whole number. */
  private at(text: string, i: number): number {
    const list = this.byKey.get(key(text, i));
    if (!list) return 0;
    for (const f of list) {
      if (!text.startsWith(f, i)) continue;
      if (this.numbers.has(f) && (isDigit(text.charCodeAt(i - 1)) || isDigit(text.charCodeAt(i + f.length)))) continue;
      return f.length;
    }
    return 0;
  }
}
