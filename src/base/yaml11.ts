/**
 * YAML 1.1's line breaks, as the engine (SnakeYAML) and Ansible (PyYAML) read them: besides \n and \r\n, a lone \r,
 * NEL (U+0085), LS (U+2028) and PS (U+2029) end a line, a comment and a plain scalar. The yaml library reads YAML 1.2,
 * where they are ordinary characters: text it parses for those readers goes through yaml11Breaks first.
 */

// the breaks YAML 1.2 does not know, each one code unit long (\r\n is left alone: both read it as one break)
const EXTRA_BREAKS = /\r(?!\n)|[\u0085\u2028\u2029]/g;

/** The text with every YAML 1.1-only break turned into \n: the same length, so every offset, line and column holds. */
export function yaml11Breaks(text: string): string {
  return text.replace(EXTRA_BREAKS, '\n');
}

// C0 controls (tab included), DEL, C1 controls (NEL among them), LS and PS
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const UNSAFE_IN_VALUE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

/** The first character of a value that a YAML 1.1 reader may take for a line break or that no config value holds. */
export function breakOrControlIn(value: string): { index: number; char: string } | undefined {
  const m = UNSAFE_IN_VALUE.exec(value);
  return m ? { index: m.index, char: m[0] } : undefined;
}

/** The name users know a refused character by. */
export function charName(c: string): string {
  const code = c.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (c === '\u0085') return `NEL (${hex})`;
  if (c === '\u2028') return `a line separator (${hex})`;
  if (c === '\u2029') return `a paragraph separator (${hex})`;
  if (c === '\n' || c === '\r') return `a line break (${hex})`;
  return `a control character (${hex})`;
}

// what a double-quoted scalar must escape beyond JSON's own escapes: DEL, C1, LS, PS
const BEYOND_JSON = /[\u007f-\u009f\u2028\u2029]/g;

/** A double-quoted scalar that both YAML 1.1 and 1.2 read back as exactly `s`: every break and control escaped. */
export function yamlDoubleQuoted(s: string): string {
  return JSON.stringify(s).replace(BEYOND_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
