/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// (the callbacks of page.evaluate run in the browser)
/** The HTML report at fleet scale, 40 clusters × 40 checks, in headless Chromium at 1,400 px: every matrix label
 * legible, what does not pass first (in the matrix and in each cluster), the passes collapsed, the headers sticky. */
import t, { type Test as Tap } from 'tap';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { renderReport } from '../../../src/report/render.ts';
import { chromiumPath, fileUrl, launch, open, screenshot } from '../../helpers/browser.ts';
import { fleetReport } from '../../helpers/report/fleet.ts';

const BAD = new Set(['fail', 'error', 'waived']);

if (!chromiumPath()) {
  t.plan(0, 'no chromium binary (apt-get install chromium, or set CHROMIUM_PATH): the browser tests are skipped');
} else {
  const report = fleetReport(40, 40);
  let browser: Browser;
  let file: string;
  t.before(async () => {
    browser = await launch();
    file = join(await mkdtemp(join(tmpdir(), 'smdoctor-fleet-')), 'fleet.html');
    await writeFile(file, renderReport(report, 'html'));
  });
  t.teardown(async () => browser?.close());

  // what the report says must come first, computed from the report itself
  const badIds = [
    ...new Set(report.clusters.flatMap((c) => c.checks.filter((k) => BAD.has(k.status)).map((k) => k.id))),
  ];
  const badClusters = report.clusters.filter((c) => c.checks.some((k) => BAD.has(k.status))).map((c) => c.name);

  /** Every label of a matrix: its computed font size and its rendered thickness (height, or width when vertical). */
  const labels = (page: Page, table: string) =>
    page.evaluate((sel) => {
      const t = document.querySelector(sel)!;
      const measure = (e: Element, vertical: boolean) => {
        const r = e.getBoundingClientRect();
        return {
          text: e.textContent,
          title: e.closest('th')!.getAttribute('title'),
          font: parseFloat(getComputedStyle(e).fontSize),
          thick: vertical ? r.width : r.height,
          visible: r.width > 0 && r.height > 0,
        };
      };
      return {
        columns: [...t.querySelectorAll('th.col span')].map((e) => measure(e, true)),
        rows: [...t.querySelectorAll('th.cl a')].map((e) => measure(e, false)),
        packs: [...t.querySelectorAll('th.pack')].map((e) => measure(e, false)),
        ids: [...t.querySelectorAll('th.col')].map((e) => e.getAttribute('data-check')),
        clusters: [...t.querySelectorAll('th.cl')].map((e) => e.getAttribute('title')),
      };
    }, table);

  const legible = (
    t: Tap,
    what: string,
    ls: Array<{ text: string | null; font: number; thick: number; visible: boolean }>,
  ) => {
    const bad = ls.filter((l) => !l.visible || l.font < 11 || l.thick < 11);
    t.same(bad, [], `${what}: all ${ls.length} drawn at 11 px or more`);
  };

  t.test('the matrix: failures first, every label at 11 px or more, the full id on hover', async (t) => {
    const o = await open(browser, file, { width: 1400 });
    t.same(o.requests, [fileUrl(file)], 'the page asked for nothing but itself');
    t.same(o.errors, []);
    const look = await labels(o.page, 'table.matrix.look');
    t.same(look.ids, badIds, 'the open matrix: exactly the checks that fail, err or are waived somewhere');
    t.same(
      look.clusters.map((l) => l!.split(' (')[0]),
      badClusters,
      'and the clusters they do so on, in the inventory order',
    );
    legible(t, 'check labels', look.columns);
    legible(t, 'cluster labels', look.rows);
    t.ok(
      look.columns.every((c, i) => c.title === badIds[i]),
      'each column says its full id on hover',
    );
    const width = await o.page.evaluate(
      () => document.querySelector('table.matrix.look')!.getBoundingClientRect().right,
    );
    t.ok(width <= 1400, `the open matrix fits the page (right edge at ${width} px)`);

    // the whole fleet, collapsed while something fails: opened, every one of its 40 × 40 labels legible
    t.equal(
      await o.page.evaluate(() => (document.querySelector('section.fleet details') as HTMLDetailsElement).open),
      false,
      'the whole fleet is collapsed',
    );
    t.equal(await o.page.locator('table.matrix.all').isVisible(), false, 'its cells are not shown');
    await o.page.click('section.fleet details > summary');
    const all = await labels(o.page, 'table.matrix.all');
    t.equal(all.ids.length, 40);
    t.equal(all.clusters.length, 40);
    t.same(all.ids.slice(0, badIds.length), badIds, 'the whole fleet too: what does not pass first');
    t.same(
      all.clusters.slice(0, badClusters.length).map((l) => l!.split(' (')[0]),
      badClusters,
    );
    legible(t, 'the whole fleet, check labels', all.columns);
    legible(t, 'the whole fleet, cluster labels', all.rows);
    legible(t, 'the whole fleet, pack names', all.packs);
    const signs = await o.page.evaluate(() =>
      [...document.querySelectorAll('table.matrix.all td.c')].map((td) => [
        td.getAttribute('data-status'),
        td.textContent,
      ]),
    );
    const SIGN: Record<string, string> = { pass: '✓', fail: '✗', error: '!', waived: 'W', skip: '–' };
    t.equal(signs.length, 1600);
    t.ok(
      signs.every(([s, x]) => SIGN[s!] === x),
      'every cell says its status by a sign as well as its colour',
    );
    await o.page.context().close();
  });

  t.test('the headers stay in view while the matrix scrolls', async (t) => {
    const o = await open(browser, file, { width: 1400 });
    await o.page.click('section.fleet details > summary');
    for (const table of ['table.matrix.look', 'table.matrix.all']) {
      const seen = await o.page.evaluate(async (sel) => {
        const tb = document.querySelector(sel)!;
        const wrap = tb.parentElement!;
        wrap.scrollIntoView();
        const head = () => tb.querySelector('tr.ids th.col')!.getBoundingClientRect();
        const corner = () => tb.querySelector('th.corner')!.getBoundingClientRect();
        const firstRow = () => tb.querySelector('tbody tr')!.getBoundingClientRect();
        const before = { head: head().top, row: firstRow().top, wrap: wrap.getBoundingClientRect().top };
        wrap.scrollTop = 300;
        wrap.scrollLeft = 300;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        return {
          scrolled: wrap.scrollTop,
          before,
          after: {
            head: head().top,
            row: firstRow().top,
            corner: corner().top,
            wrap: wrap.getBoundingClientRect().top,
          },
          cornerLeft: corner().left - wrap.getBoundingClientRect().left,
        };
      }, table);
      t.ok(seen.scrolled > 100, `${table}: the matrix scrolls (by ${seen.scrolled} px)`);
      t.ok(seen.after.row < seen.before.row - 100, `${table}: its rows moved up`);
      t.ok(
        Math.abs(seen.after.head - seen.before.head) < 2,
        `${table}: the check labels stayed where they were (${seen.before.head} → ${seen.after.head})`,
      );
      t.ok(Math.abs(seen.after.corner - seen.after.wrap) < 2, `${table}: the header stays at the top of the matrix`);
      t.ok(Math.abs(seen.cornerLeft) < 2, `${table}: the cluster column stays at its left`);
    }
    await o.page.context().close();
  });

  t.test(
    'each cluster: what does not pass first, the passes collapsed, one line each; the same without script',
    async (t) => {
      for (const javaScript of [true, false]) {
        const o = await open(browser, file, { width: 1400, javaScript });
        const sections = await o.page.evaluate(() =>
          [...document.querySelectorAll('section.cluster')].map((s) => ({
            look: [...s.querySelectorAll('table.look tr.check')].map((r) => r.getAttribute('data-status')),
            rest: [...s.querySelectorAll('details.passes tr.check')].map((r) => ({
              status: r.getAttribute('data-status'),
              shown: r.checkVisibility(),
              about: r.querySelector('.about') !== null,
            })),
            open: (s.querySelector('details.passes') as HTMLDetailsElement | null)?.open ?? null,
          })),
        );
        const how = javaScript ? '' : ' (without script)';
        t.equal(sections.length, 40);
        for (const [i, s] of sections.entries()) {
          const c = report.clusters[i]!;
          const bad = c.checks.filter((k) => BAD.has(k.status)).length;
          if (s.look.length !== bad || s.rest.length !== c.checks.length - bad) {
            t.fail(`${c.name}: ${s.look.length} shown first, ${s.rest.length} collapsed${how}`);
            continue;
          }
          t.ok(
            s.look.every((x) => BAD.has(x!)),
            `${c.name}: failing, erroring and waived first${how}`,
          );
          t.ok(
            s.rest.every((x) => !BAD.has(x.status!) && x.shown === !bad && !x.about),
            `${c.name}: the rest ${bad ? 'collapsed' : 'shown'}, without their why${how}`,
          );
          t.equal(
            s.open,
            bad ? false : true,
            `${c.name}: collapsed when something fails, open when nothing does${how}`,
          );
        }
        if (javaScript) {
          t.ok(await o.page.isChecked('#only-bad'), '"only what does not pass" is the view when anything fails');
          await o.page.uncheck('#only-bad');
          t.ok(
            await o.page.evaluate(() =>
              [...document.querySelectorAll('details.passes')].every((d) => (d as HTMLDetailsElement).open),
            ),
            'unchecked, every pass shows',
          );
          await o.page.check('#only-bad');
          await o.page.evaluate(() => window.scrollTo(0, 0));
          await screenshot(o.page, 'fleet-40x40');
          // the picture of docs/images/fleet-report.png: the summary and the matrix of what does not pass
          const bottom = await o.page.evaluate(
            () => document.querySelector('section.fleet')!.getBoundingClientRect().bottom + window.scrollY,
          );
          await o.page.screenshot({
            path: join(process.cwd(), '.tap', 'screenshots', 'fleet-report.png'),
            fullPage: true,
            clip: { x: 0, y: 0, width: 1400, height: Math.ceil(bottom) + 10 },
          });
        }
        await o.page.context().close();
      }
    },
  );

  t.test('a fleet where everything passes: the passes are the view', async (t) => {
    const good = fleetReport(3, 12);
    for (const c of good.clusters) for (const k of c.checks) k.status = 'pass';
    const f = join(file, '..', 'good.html');
    await writeFile(f, renderReport(good, 'html'));
    const o = await open(browser, f, { width: 1400 });
    t.notOk(await o.page.isChecked('#only-bad'));
    t.equal(await o.page.locator('table.matrix.look').count(), 0, 'no matrix of failures');
    t.ok(await o.page.locator('table.matrix.all').isVisible(), 'the whole fleet is shown');
    await o.page.context().close();
  });
}
