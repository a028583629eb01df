/// <reference lib="dom" />
// (the callbacks of page.evaluate run in the browser)
/** The HTML history strip: only a status smdoctor knows becomes a class; anything else in a kept report is text. */
import t from 'tap';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckStatus, Report } from '../../../src/model/index.ts';
import { CHECK_STATUSES } from '../../../src/model/index.ts';
import { stripHtml } from '../../../src/report/html/history.ts';
import { renderReport } from '../../../src/report/render.ts';
import { chromiumPath, fileUrl, launch, open } from '../../helpers/browser.ts';
import { sample } from '../../helpers/report/sample.ts';

// the review's attack: a status that closes the class attribute and adds a refresh the page policy does not stop
const HOSTILE = 'x"><meta http-equiv="refresh" content="0;url=about:blank#gone"><i class="';

function withStatus(status: string): Report {
  const r = sample();
  r.generated_at = '2026-11-26T07:00:00.000Z';
  for (const k of r.clusters[0]!.checks) k.status = status as CheckStatus;
  return r;
}

t.test('stripHtml: a class for each known status, escaped text for anything else', async (t) => {
  for (const status of CHECK_STATUSES)
    t.match(stripHtml([{ at: 'a', status }]), `<i class="st-${status}" title="a: `, `${status}: its class`);
  t.match(stripHtml([{ at: 'a', status: null }]), '<i class="none" title="a: not run">');
  for (const status of [HOSTILE, 'pass st-fail', '']) {
    const html = stripHtml([{ at: '<b>', status: status as CheckStatus }]);
    t.notMatch(html, /<meta|<b>|class="st-/, `${JSON.stringify(status)}: no markup, no status class`);
    t.match(html, /^<span class="strip"[^>]*><i class="none" title="[^"<>]*"><\/i><\/span>$/, 'one cell, one title');
  }
});

if (!chromiumPath()) t.comment('no chromium binary: the browser part is skipped');
else
  t.test('in Chromium: a hostile kept status neither navigates nor adds an element', async (t) => {
    const browser = await launch();
    t.teardown(() => browser.close());
    const dir = await mkdtemp(join(tmpdir(), 'smdoctor-strip-'));
    const file = join(dir, 'audit.html');
    const now = sample();
    await writeFile(file, renderReport(now, 'html', { history: [withStatus(HOSTILE), withStatus('pass'), now] }));
    const o = await open(browser, file);
    // a refresh of 0 seconds would have fired by now
    await o.page.waitForTimeout(1500);
    t.equal(o.page.url(), fileUrl(file), 'still on the report');
    t.same(o.requests, [fileUrl(file)], 'nothing asked for');
    const seen = await o.page.evaluate(() => ({
      metas: [...document.querySelectorAll('meta[http-equiv]')].map((m) => m.getAttribute('http-equiv')),
      classes: [...document.querySelectorAll('.strip i')].map((i) => i.className),
      titles: [...document.querySelectorAll('.strip i.none')].map((i) => i.getAttribute('title')),
    }));
    t.same(seen.metas, ['Content-Security-Policy'], 'only the page policy is a meta http-equiv');
    t.ok(seen.classes.length > 0, 'the strips are drawn');
    t.ok(
      seen.classes.every((c) => c === 'none' || CHECK_STATUSES.some((s) => c === `st-${s}`)),
      `only known classes: ${[...new Set(seen.classes)].join(' ')}`,
    );
    t.ok(
      seen.titles.some((x) => x?.includes('unknown status x">')),
      'the hostile value shows as text in the title',
    );
  });
