/** A dashboard's `json` field: an object, or a JSON string whose formatting style is kept on write. */
import { errText } from '../../base/errors.ts';
import { parseLong, stringifyLong } from '../../base/json-long.ts';

type Obj = Record<string, unknown>;

export interface JsonStyle {
  /** The field was a string. */
  string: boolean;
  /** JSON.stringify indentation: 0 compact, a number of spaces, or '\t'. */
  indent: number | string;
  trailingNewline: boolean;
  crlf: boolean;
}

export type ParsedJson = { value: Obj; style: JsonStyle } | { error: string };

const OBJECT_STYLE: JsonStyle = { string: false, indent: 0, trailingNewline: false, crlf: false };

export function parseJsonField(raw: unknown): ParsedJson {
  if (raw === undefined) return { error: 'has no `json` field' };
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return { value: raw as Obj, style: OBJECT_STYLE };
  if (typeof raw !== 'string') return { error: '`json` is neither an object nor a JSON string' };
  let value: unknown;
  try {
    value = parseLong(raw);
  } catch (err) {
    return { error: `\`json\` is not valid JSON (${errText(err)})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: '`json` does not hold a JSON object' };
  return { value: value as Obj, style: styleOf(raw) };
}

/** Indentation of the first indented line: the style the text was written in. */
function styleOf(text: string): JsonStyle {
  const m = /\n([ \t]+)\S/.exec(text);
  const indent = !m ? 0 : m[1].startsWith('\t') ? '\t' : m[1].length;
  return { string: true, indent, trailingNewline: /\n$/.test(text), crlf: text.includes('\r\n') };
}

/** The value in the field's original form: string stays string (same indentation), object stays object. */
export function formatJsonField(value: Obj, style: JsonStyle): unknown {
  if (!style.string) return value;
  let text = stringifyLong(value, style.indent || undefined);
  if (style.crlf) text = text.replace(/\n/g, '\r\n');
  return style.trailingNewline ? text + (style.crlf ? '\r\n' : '\n') : text;
}
