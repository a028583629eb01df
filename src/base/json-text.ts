/** JSON.stringify where some values are written as text of their own: a BigInt's exact digits, Python's floats. */
import { randomBytes } from 'node:crypto';

/** A value with this method is written as the number text it returns (`25.0`, `Infinity`), not as its toJSON(). */
export const JSON_TEXT = Symbol('JSON text');

interface HasJsonText {
  [JSON_TEXT](): string;
}

const hasText = (v: unknown): v is HasJsonText =>
  typeof v === 'object' && v !== null && typeof (v as Partial<HasJsonText>)[JSON_TEXT] === 'function';

/** Like JSON.stringify (with indentation); a BigInt is written as its digits, a JSON_TEXT value as its text. */
export function stringifyJson(
  value: unknown,
  space?: number | string,
  map?: (key: string, value: unknown) => unknown,
): string {
  const tag = randomBytes(6).toString('hex');
  let marked = false;
  const out = JSON.stringify(
    value,
    // the holder's own value: toJSON() has already replaced it in v
    function (this: Record<string, unknown>, k: string, v0: unknown) {
      const v = map ? map(k, v0) : v0;
      const own = this[k];
      const text = typeof v === 'bigint' ? String(v) : hasText(own) ? own[JSON_TEXT]() : undefined;
      if (text === undefined || !/^[-+.\w]+$/.test(text)) return v;
      marked = true;
      return `\u0000${tag}:${text}`;
    },
    space,
  );
  // the tag is random per call, so no string of the document can look like it
  return marked ? out.replace(new RegExp(`"\\\\u0000${tag}:([-+.\\w]+)"`, 'g'), '$1') : out;
}
