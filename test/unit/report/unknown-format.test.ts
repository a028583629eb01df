import t from 'tap';
import { FORMATS, type Format } from '../../../src/report/formats.ts';
import { renderReport } from '../../../src/report/render.ts';
import { UsageError, exitCodeFor } from '../../../src/base/errors.ts';
import { sample } from '../../helpers/report/sample.ts';

t.test(
  'renderReport refuses a format it does not know (a JavaScript caller, a cast) instead of rendering text',
  async (t) => {
    let thrown: unknown;
    try {
      renderReport(sample(), 'yaml' as Format);
    } catch (err) {
      thrown = err;
    }
    t.type(thrown, UsageError);
    t.equal(exitCodeFor(thrown), 2);
    t.match(
      (thrown as Error).message,
      /unknown report format "yaml": the formats are text, json, junit, markdown, html, prometheus/,
    );
  },
);

t.test('every known format renders', async (t) => {
  for (const format of FORMATS) t.ok(renderReport(sample(), format).length > 0, format);
});
