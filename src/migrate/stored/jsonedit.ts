/** Replaces string values inside JSON text in place, so everything else keeps its exact bytes. */

export type JsonPath = ReadonlyArray<string | number>;

/** Spans [start, end) of the string values at the wanted paths (a later duplicate key wins, as JSON.parse does). */
export function stringSpans(text: string, wanted: readonly JsonPath[]): Map<string, [number, number]> {
  const want = new Set(wanted.map((p) => JSON.stringify(p)));
  const spans = new Map<string, [number, number]>();
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const str = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: Array<string | number>): void => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      ws();
      const close = c === '{' ? '}' : ']';
      for (let n = 0; text[i] !== close; n++) {
        if (i >= text.length) throw new Error('unexpected end of JSON');
        let key: string | number = n;
        if (c === '{') {
          ws();
          key = str();
          ws();
          i++; // ':'
        }
        value([...path, key]);
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (c === '"') {
      const start = i;
      str();
      const k = JSON.stringify(path);
      if (want.has(k)) spans.set(k, [start, i]);
    } else {
      while (i < text.length && !',}] \t\r\n'.includes(text[i])) i++;
    }
  };
  value([]);
  return spans;
}

/** The text with each path's string replaced; undefined when a path does not hold the expected string. */
export function replaceStrings(
  text: string,
  edits: ReadonlyArray<{ path: JsonPath; from: string; to: string }>,
): string | undefined {
  let spans: Map<string, [number, number]>;
  try {
    spans = stringSpans(
      text,
      edits.map((e) => e.path),
    );
  } catch {
    return undefined;
  }
  const located = edits.map((e) => ({ e, span: spans.get(JSON.stringify(e.path)) }));
  if (located.some(({ e, span }) => !span || JSON.parse(text.slice(span[0], span[1])) !== e.from)) return undefined;
  let out = text;
  for (const { e, span } of located.sort((a, b) => b.span![0] - a.span![0]))
    out = out.slice(0, span![0]) + JSON.stringify(e.to) + out.slice(span![1]);
  return out;
}
