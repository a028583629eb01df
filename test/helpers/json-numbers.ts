/** Parsed JSON with each number as the string of its text (`25.0` is not `25`), to compare values as written. */
export function numbersAsText(json: string): unknown {
  const tokens = /("(?:[^"\\]|\\.)*")|-?(?:\d[\d.eE+-]*|Infinity)|NaN/g;
  return JSON.parse(json.replace(tokens, (m, str?: string) => str ?? JSON.stringify(`#${m}`)));
}
