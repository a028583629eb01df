/** HTML, XML and Markdown's inline HTML: every string from hosts, the API or documents is escaped by one table here. */

/** The one entity table: each output picks the characters its context needs. */
export const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const entity = (c: string): string => ENTITIES[c]!;

/** Markdown renders inline HTML: <, > and & are written as entities outside code. */
export const escapeHtml = (s: string): string => s.replace(/[&<>]/g, entity);

// characters HTML cannot carry (C0 but tab/newline, lone surrogates) are dropped; controls.ts has made controls visible already
const INVALID =
  // eslint-disable-next-line no-control-regex -- the forbidden characters are the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text or a quoted attribute value, safe in either place. */
export const esc = (s: string | number | boolean | null | undefined): string =>
  String(s ?? '')
    .replace(INVALID, '')
    .replace(/[&<>"']/g, entity);

/** At most n characters (an ellipsis after), for labels drawn in fixed-size boxes; the whole text goes in a title. */
export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

// characters XML 1.0 cannot carry at all are dropped
// eslint-disable-next-line no-control-regex -- the allowed control characters are the point
const XML_INVALID = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// XML's own name for the apostrophe, which JUnit readers have always been given
const XML_ENTITIES: Readonly<Record<string, string>> = { ...ENTITIES, "'": '&apos;' };

/** XML text or attribute value (JUnit): what XML cannot carry dropped, the rest escaped by the same table. */
export const xmlEscape = (s: string): string => s.replace(XML_INVALID, '').replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!);
