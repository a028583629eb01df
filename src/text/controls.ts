/** Strings from hosts and the API reach a terminal or a ticket: control characters and HTML are made visible, not obeyed. */

// C0 controls but tab and newline, DEL, C1 controls, and bidi overrides that reorder what a reader sees
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** ESC becomes the four characters \x1b, so a name cannot repaint the screen or hide text. */
export function escapeControls(s: string): string {
  return s.replace(CONTROL, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}

/** A copy with every string escaped (keys too); numbers, booleans and null are kept. */
export function escapeControlsDeep<T>(v: T): T {
  if (typeof v === 'string') return escapeControls(v) as T;
  if (Array.isArray(v)) return v.map(escapeControlsDeep) as T;
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [escapeControls(k), escapeControlsDeep(x)])) as T;
  }
  return v;
}
