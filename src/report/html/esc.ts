/** HTML escaping for text and attribute values: every string from hosts, the API or documents goes through here. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// characters HTML cannot carry (C0 but tab/newline, lone surrogates) are dropped; escape.ts has made controls visible already
const INVALID =
  // eslint-disable-next-line no-control-regex -- the forbidden characters are the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text or a quoted attribute value, safe in either place. */
export const esc = (s: string | number | boolean | null | undefined): string =>
  String(s ?? '')
    .replace(INVALID, '')
    .replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** At most n characters (an ellipsis after), for labels drawn in fixed-size boxes; the whole text goes in a title. */
export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** An id made of the index only: ids never carry names from hosts. */
export const idOf = (prefix: string, ...n: number[]): string => `${prefix}-${n.join('-')}`;
