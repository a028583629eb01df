/** The escaping of strings from hosts and the API, shared with fix and migrate (src/escape.ts); markdown's own here. */
export { escapeControls, escapeControlsDeep } from '../escape.ts';

/** Markdown renders inline HTML: <, > and & are written as entities outside code. */
export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
