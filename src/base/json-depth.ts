/** JSON from a file smdoctor reads back is walked recursively later (redaction, digests, rendering): too deep is refused first. */

/** Levels of objects and arrays a report or plan may nest: a real one has about 10 (a document body in an action). */
export const MAX_JSON_DEPTH = 100;

/** Where the value first nests deeper than max (`clusters[0].checks[0].actions[0].body.a.a…`), or null. No recursion. */
export function tooDeepAt(value: unknown, max = MAX_JSON_DEPTH): string | null {
  const todo: Array<[unknown, number, string]> = [[value, 0, '']];
  while (todo.length) {
    const [x, depth, at] = todo.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (depth >= max) return at.replace(/^\./, '').slice(0, 120) + (at.length > 121 ? '…' : '');
    for (const [k, y] of Object.entries(x)) todo.push([y, depth + 1, Array.isArray(x) ? `${at}[${k}]` : `${at}.${k}`]);
  }
  return null;
}
