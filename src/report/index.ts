/** renderReport: one report, four formats; secrets are scrubbed before any of them. */
import type { Report } from '../model/index.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { redactDeep } from '../secrets.ts';
import { renderText } from './text.ts';
import { renderPrometheus } from './prometheus/report.ts';
import { escapeControlsDeep } from './escape.ts';
import { renderHtml, type HtmlOptions } from './html/index.ts';

/** The report formats: `text` for people, `json` for programs, `junit` for CI, `markdown` for tickets, `html` to hand
 * to people, `prometheus` for node_exporter's textfile collector. */
export type Format = 'text' | 'json' | 'junit' | 'markdown' | 'html' | 'prometheus';

export interface RenderOptions extends HtmlOptions {
  color?: boolean;
  /** prometheus: how long the run took. */
  durationSeconds?: number;
}

export function renderReport(report: Report, format: Format, opts: RenderOptions = {}): string {
  const r = redactDeep(report);
  switch (format) {
    case 'html':
      return renderHtml(escapeControlsDeep(r), {
        history: (opts.history ?? []).map((h) => escapeControlsDeep(redactDeep(h))),
      });
    case 'prometheus':
      return renderPrometheus(r, opts.durationSeconds);
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

export { renderJson, renderJunit, renderMarkdown, renderText, renderHtml, renderPrometheus };
export { redactText, redactDeep } from '../secrets.ts';
export { escapeControls, escapeControlsDeep, escapeHtml } from './escape.ts';
