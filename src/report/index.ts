/** renderReport: one report, four formats; secrets are scrubbed before any of them. */
import type { Report } from '../model/index.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { redactDeep } from '../secrets.ts';
import { renderText } from './text.ts';
import { escapeControlsDeep } from './escape.ts';

/** The report formats: `text` for people, `json` for programs, `junit` for CI, `markdown` for tickets. */
export type Format = 'text' | 'json' | 'junit' | 'markdown';

export function renderReport(report: Report, format: Format, opts: { color?: boolean } = {}): string {
  const r = redactDeep(report);
  switch (format) {
    case 'json':
      return renderJson(r);
    case 'junit':
      return renderJunit(r);
    // names and messages from hosts and the API may hold ESC sequences: shown, never obeyed
    case 'markdown':
      return renderMarkdown(escapeControlsDeep(r));
    default:
      return renderText(escapeControlsDeep(r), { color: opts.color ?? false });
  }
}

export { renderJson, renderJunit, renderMarkdown, renderText };
export { redactText, redactDeep } from '../secrets.ts';
export { escapeControls, escapeControlsDeep, escapeHtml } from './escape.ts';
