/** renderReport: one report, four formats; secrets are scrubbed before any of them. */
import type { Report } from '../model/index.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { escapeControlsDeep, redactDeep } from '../text/index.ts';
import { renderText } from './text.ts';
import { renderPrometheus } from './prometheus/report.ts';
import { renderHtml, type HtmlOptions } from './html/report.ts';
import { UsageError, unhandled } from '../base/errors.ts';
import { FORMATS, type Format } from './formats.ts';

export interface RenderOptions extends HtmlOptions {
  color?: boolean;
  /** text: the terminal's columns, every line fits them; none, lines are as long as their text. */
  width?: number | undefined;
  /** text and Markdown: passing checks with their why, docs and findings too (-v). */
  verbose?: boolean;
  /** prometheus: how long the run took. */
  durationSeconds?: number;
}

/** The report in `format`; a format it does not know (from JavaScript, or a cast) is a usage error, never text. */
export function renderReport(report: Report, format: Format, opts: RenderOptions = {}): string {
  // checked before anything is read: the report is not even redacted for a format that cannot be rendered
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`unknown report format ${JSON.stringify(format)}: the formats are ${FORMATS.join(', ')}`);
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
      return renderJunit(escapeControlsDeep(r));
    // names and messages from hosts and the API may hold ESC sequences: shown, never obeyed
    case 'markdown':
      return renderMarkdown(escapeControlsDeep(r), { verbose: opts.verbose ?? false });
    case 'text':
      return renderText(escapeControlsDeep(r), {
        color: opts.color ?? false,
        verbose: opts.verbose ?? false,
        width: opts.width,
      });
    default:
      return unhandled(format, 'report format');
  }
}
