/** Whether a document read from the cluster can be written back with every field outside the queries unchanged. */

/** Why writing the document back would change a field it does not mean to touch; undefined when it would not. */
export function changesOnWrite(v: unknown, path = ''): string | undefined {
  if (typeof v === 'number') {
    // 1e400 reads as Infinity and would be written as null; -0 would be written as 0
    if (!Number.isFinite(v))
      return `${path || 'the document'} holds a number beyond a double (it would be written as null)`;
    if (Object.is(v, -0)) return `${path || 'the document'} holds -0 (it would be written as 0)`;
    return undefined;
  }
  // U+FFFD is what a decoder leaves of an unpaired surrogate or invalid bytes: the original is already lost
  if (typeof v === 'string')
    return v.includes('\uFFFD')
      ? `${path || 'the document'} holds text that did not decode (U+FFFD): writing it back would replace the original`
      : undefined;
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) {
      const why = changesOnWrite(x, `${path}[${i}]`);
      if (why) return why;
    }
    return undefined;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const why = changesOnWrite(x, path ? `${path}.${k}` : k);
      if (why) return why;
    }
  }
  return undefined;
}
