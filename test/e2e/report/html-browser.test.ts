/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// (the callbacks of page.evaluate run in the browser)
/** The HTML report in a real browser: headless Chromium opens it from file://, the DOM is checked, no request leaves. */
import t from 'tap';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { CHECK_IDS, type Report } from '../../../src/model/index.ts';
import { renderReport } from '../../../src/report/render.ts';
import { runCli } from '../../helpers/cli.ts';
import { chromiumPath, fileUrl, launch, open, screenshot } from '../../helpers/browser.ts';
import { labForFile } from '../../helpers/lab.ts';
import { sample } from '../../helpers/report/sample.ts';

if (!chromiumPath()) {
  t.plan(0, 'no chromium binary (apt-get install chromium, or set CHROMIUM_PATH): the browser tests are skipped');
} else {
  const shared = labForFile('broken');
  let browser: Browser;
  let dir: string;
  t.before(async () => {
    browser = await launch();
    dir = await mkdtemp(join(tmpdir(), 'smdoctor-html-'));
  });
  t.teardown(async () => browser?.close());
  const cli = (...args: string[]) => runCli([...args, '-i', shared.lab.inventoryPath, '--timeout', '20']);

  /** What the page shows, read from its DOM. */
  const dom = (page: import('playwright-core').Page) =>
    page.evaluate(() => {
      const size = (sel: string) =>
        [...document.querySelectorAll(sel)].map((e) => {
          const r = e.getBoundingClientRect();
          return { w: r.width, h: r.height };
        });
      return {
        clusters: [...document.querySelectorAll('section.cluster')].map((s) => ({
          name: s.getAttribute('data-name'),
          checks: [...s.querySelectorAll('tr.check')].map((r) => [
            r.getAttribute('data-check'),
            r.getAttribute('data-status'),
          ]),
          actions: [...s.querySelectorAll('ol.plan > li.action')].map((l) => l.querySelector('code')!.textContent),
          strips: [...s.querySelectorAll('.strip')].map((x) => x.children.length),
        })),
        matrix: size('table.matrix'),
        topology: size('svg.topology'),
        timeline: size('svg.timeline'),
        // the whole fleet's matrix: every cluster and check, collapsed or not
        cells: [...document.querySelectorAll('table.matrix.all td.c')].map((g) => g.getAttribute('data-status')),
        filtersShown: !(document.getElementById('filters') as HTMLElement).hidden,
        diffAdds: document.querySelectorAll('pre.diff .add').length,
        diffDels: document.querySelectorAll('pre.diff .del').length,
        scripts: document.scripts.length,
        images: document.images.length,
        text: document.body.innerText,
      };
    });

  t.test(
    'audit --format html on the broken lab: every cluster, check and action, pictures drawn, no request',
    async (t) => {
      const history = join(dir, 'history');
      const json = await cli('audit', '--format', 'json', '--history', history);
      t.equal(json.code, 1, 'the broken lab fails its checks');
      const report = JSON.parse(json.out) as Report;
      const file = join(dir, 'audit.html');
      const r = await cli('audit', '--format', 'html', '-o', file, '--history', history);
      t.equal(r.code, 1, r.err);
      const o = await open(browser, file);
      const d = await dom(o.page);
      t.same(o.requests, [fileUrl(file)], 'the page asked for nothing but itself');
      t.same(o.errors, [], 'no console error: nothing blocked by the page policy, no script error');
      t.ok(d.filtersShown, 'the page script ran (its hash is allowed by the policy) and showed the filters');
      t.equal(d.clusters.length, report.clusters.length);
      for (const [i, c] of report.clusters.entries()) {
        const seen = d.clusters[i]!;
        t.equal(seen.name, c.name === c.api_url ? c.api_url : `${c.name} (${c.api_url})`);
        t.same(
          seen.checks,
          c.checks.map((k) => [k.id, k.status]),
          'every check with its status',
        );
        const actions = [...(c.actions ?? []), ...c.checks.flatMap((k) => k.actions)];
        t.equal(seen.actions.length, actions.length, 'every action of the plan');
        for (const a of actions)
          t.ok(
            seen.actions.some((x) => x!.includes(a.type)),
            `${a.type} listed`,
          );
        // the report kept before this one and this one: two runs per check
        t.same(
          seen.strips,
          CHECK_IDS.map(() => 2),
          'a strip of the last two runs per check',
        );
      }
      t.same(
        d.cells,
        CHECK_IDS.map(() => 'fail'),
        'the matrix has a cell per check, coloured by status',
      );
      t.equal(d.matrix.length, 2, 'the matrix of what fails, and the whole fleet');
      for (const [k, sizes] of Object.entries({ topology: d.topology, timeline: d.timeline })) {
        t.equal(sizes.length, report.clusters.length, `${k}: one picture per cluster (or the fleet)`);
        for (const s of sizes) t.ok(s.w > 100 && s.h > 30, `${k} drawn with a size (${s.w}×${s.h})`);
      }
      t.ok(d.diffAdds > 0 && d.diffDels > 0, 'diff lines marked added and removed');
      t.match(d.text, /★ m1|★ m2|★ m3/, 'the elected manager is marked');
      t.match(d.text, /node_with_sme: true ✗/, 'the failing master is marked');
      t.notMatch(d.text, /hunter2|secret/i, 'no secret shown');
      await screenshot(o.page, 'audit-light');
      await o.page.emulateMedia({ media: 'print' });
      t.equal(
        await o.page.evaluate(() => getComputedStyle(document.getElementById('filters')!).display),
        'none',
        'printed without the filters',
      );
      await screenshot(o.page, 'audit-print');
      await o.page.context().close();

      const dark = await open(browser, file, { colorScheme: 'dark' });
      const bg = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      t.not(bg, 'rgb(255, 255, 255)', 'follows prefers-color-scheme: dark');
      await screenshot(dark.page, 'audit-dark');
      await dark.page.context().close();

      const plain = await open(browser, file, { javaScript: false });
      const p = await dom(plain.page);
      t.notOk(p.filtersShown, 'without scripting, the filters stay hidden');
      t.same(p.clusters, d.clusters, 'and everything is shown');
      await plain.page.context().close();
    },
  );

  t.test('filters hide what passes, and find by text', async (t) => {
    const file = join(dir, 'audit.html');
    const o = await open(browser, file);
    await o.page.fill('#q', 'master-plugins');
    const shown = await o.page.evaluate(() =>
      [...document.querySelectorAll('tr.check')]
        .filter((r) => !(r as HTMLElement).hidden)
        .map((r) => r.getAttribute('data-check')),
    );
    t.same(shown, ['master-plugins']);
    await o.page.context().close();
  });

  t.test('hostile names from hosts, the API or documents are shown as text, never run', async (t) => {
    const r = sample();
    const evil = `<img src=x onerror=alert(1)></style><script>alert(2)</script>"'&\u001b[2J`;
    r.clusters[0]!.name = evil;
    r.clusters[0]!.checks[0]!.reason = evil;
    r.clusters[0]!.topology = {
      nodes: [
        {
          name: evil,
          host: 'm1',
          address: '10.0.0.1',
          roles: ['cluster_manager'],
          master: true,
          elected: true,
          reachable: true,
          node_with_sme: true,
          plugins: [`sm-sigma${evil}`],
          keystore_entry: true,
          limits_copies: [],
        },
      ],
      web: [{ host: `w1${evil}`, reachable: true, points_at: [{ url: `https://${evil}`, node: evil }] }],
    };
    const file = join(dir, 'hostile.html');
    await writeFile(file, renderReport(r, 'html'));
    const html = await readFile(file, 'utf8');
    t.notMatch(html, 'hunter2', 'the secret in a diff context is blanked');
    t.notMatch(html, '\u001b', 'control characters are shown escaped');
    const o = await open(browser, file);
    const d = await dom(o.page);
    t.same(o.dialogs, [], 'no script from a name ran');
    t.equal(d.images, 0, 'no element from a name');
    t.equal(d.scripts, 1, 'only the page script');
    t.same(o.requests, [fileUrl(file)]);
    t.match(d.text, '<img src=x onerror=alert(1)></style><script>alert(2)</script>', 'the name is shown as text');
    const svgText = await o.page.evaluate(() => document.querySelector('svg.topology')!.textContent);
    t.match(svgText, '<img src=x', 'and as text in the picture');
    await screenshot(o.page, 'hostile');
    await o.page.context().close();
  });

  t.test(
    'migrate dashboards --format html: the queries to change, inserted text marked, manual review first',
    async (t) => {
      const json = JSON.parse((await cli('migrate', 'dashboards', '--format', 'json')).out) as Array<
        Record<string, any>
      >;
      const file = join(dir, 'migrate.html');
      const r = await cli('migrate', 'dashboards', '--format', 'html', '-o', file);
      t.equal(r.code, 1, r.err);
      const o = await open(browser, file);
      const seen = await o.page.evaluate(() =>
        [...document.querySelectorAll('article.query')].map((a) => ({
          manual: a.classList.contains('manual'),
          original: a.querySelector('pre.original')!.textContent,
          replacement: a.querySelector('pre.replacement')?.textContent ?? null,
          marks: a.querySelectorAll('pre.replacement ins.text').length,
        })),
      );
      t.same(o.requests, [fileUrl(file)]);
      t.same(o.errors, []);
      t.equal(seen.length, json.length, 'every query to change or review');
      const firstAuto = seen.findIndex((e) => !e.manual);
      t.ok(
        seen.slice(firstAuto).every((e) => !e.manual),
        'manual review first',
      );
      for (const e of seen.filter((x) => !x.manual)) {
        const entry = json.find((j) => j.query.original === e.original)!;
        t.equal(e.replacement, entry.query.replacement, 'the replacement as smdoctor would write it');
        t.equal(
          e.marks,
          (entry.query.replacement.match(/\btext /g) ?? []).length -
            (entry.query.original.match(/\btext /g) ?? []).length,
        );
      }
      await screenshot(o.page, 'migrate-dashboards');
      await o.page.context().close();
    },
  );

  t.test('fix --format html: the plan as it ran, and before/after per check', async (t) => {
    const file = join(dir, 'fix.html');
    const r = await cli('fix', '--yes', '--format', 'html', '-o', file, '--backup-dir', join(dir, 'bk'));
    t.equal(r.code, 0, 'the fix succeeded');
    const o = await open(browser, file);
    const after = await o.page.evaluate(() =>
      [...document.querySelectorAll('table.before-after tr[data-check]')].map((row) => [
        row.getAttribute('data-check'),
        row.querySelectorAll('.st')[1]?.textContent,
      ]),
    );
    t.same(
      after,
      CHECK_IDS.map((id) => [id, 'PASS']),
      'every check passes after the fix',
    );
    const d = await dom(o.page);
    t.ok(
      d.clusters[0]!.actions.every((a) => a!.startsWith('✓')),
      'every action done',
    );
    t.same(
      d.cells,
      CHECK_IDS.map(() => 'pass'),
      'the matrix shows the fleet as the fix left it',
    );
    t.same(o.requests, [fileUrl(file)]);
    await screenshot(o.page, 'fix');
    await o.page.context().close();
  });
}
