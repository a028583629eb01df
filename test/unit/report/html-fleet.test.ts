/** The HTML report's fleet views (summary per severity and per pack, the matrix, each cluster's checks) as markup:
 * what does not pass first, hostile ids and names escaped everywhere they now appear, still one page under its policy. */
import t from 'tap';
import type { Report } from '../../../src/model/index.ts';
import { renderReport } from '../../../src/report/render.ts';
import { fleetReport } from '../../helpers/report/fleet.ts';
import { sample } from '../../helpers/report/sample.ts';

const EVIL = `"><img src=x onerror=alert(1)></style><script>alert(2)</script>'&\u001b[2J`;

function hostile(): Report {
  const r = sample();
  const c = r.clusters[0]!;
  c.name = EVIL;
  c.checks.push({
    id: `pack${EVIL}/id${EVIL}`,
    order: 6,
    status: 'fail',
    severity: 'high',
    title: EVIL,
    why: EVIL,
    reason: EVIL,
    findings: [],
    actions: [],
  });
  return r;
}

t.test('html: hostile cluster names and check ids in the summary, the matrix and its titles are text', async (t) => {
  const out = renderReport(hostile(), 'html');
  t.notMatch(out, /<img/i, 'no element from a name');
  t.equal((out.match(/<script/g) ?? []).length, 1, 'only the page script');
  t.notMatch(out, /<\/style><script>alert/);
  t.notMatch(out, '\u001b', 'control characters shown escaped');
  t.match(out, 'pack&quot;&gt;&lt;img', 'the pack name escaped');
  t.match(out, /<th class="col[^"]*" scope="col" data-check="pack&quot;&gt;&lt;img/, 'in a column header');
  t.match(out, /<tr data-key="pack&quot;&gt;&lt;img/, 'in the summary per pack');
  t.match(out, /<th class="cl" scope="row" title="&quot;&gt;&lt;img/, 'the cluster in its row header');
  t.match(out, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;|default-src 'none'/);
});

t.test('html: what does not pass first in the matrix and each cluster; passes collapsed, one line each', async (t) => {
  const out = renderReport(fleetReport(6, 12), 'html');
  const look = out.slice(
    out.indexOf('<table class="matrix look">'),
    out.indexOf('</table>', out.indexOf('matrix look')),
  );
  t.ok(look.length > 100, 'a matrix of what does not pass');
  t.notMatch(look, 'data-status="none"');
  const ids = [...look.matchAll(/<th class="col[^"]*" scope="col" data-check="([^"]+)"/g)].map((m) => m[1]);
  t.same(ids, ['master-node-with-sme', 'fleet/demo-certificates', 'fleet/heap-size'], 'its columns');
  t.match(out, /<details class="passes"><summary>The whole fleet: 6 clusters × 12 checks/, 'the rest collapsed');
  t.match(out, '<input id="only-bad" type="checkbox" checked>', 'and the filter says so');
  const first = out.slice(out.indexOf('<section class="cluster" id="cluster-0"'), out.indexOf('id="cluster-1"'));
  t.match(
    first,
    /<table class="checks look">.*data-status="fail".*<\/table><details class="passes"><summary>The other 11 checks: 11 pass<\/summary>/s,
  );
  const rest = first.slice(first.indexOf('<details class="passes">'));
  t.notMatch(rest, 'class="about"', 'a passing check without its why');
  t.notMatch(rest, 'docs.example', 'nor its docs');
  t.match(
    first.slice(0, first.indexOf('<details')),
    'master-node-with-sme does not hold [/etc/x.yml:1]',
    'what fails keeps its evidence',
  );
});

t.test('html: the summary per severity and per pack, with the clusters each check fails on', async (t) => {
  const out = renderReport(fleetReport(6, 12), 'html');
  const sev = out.slice(out.indexOf('<table class="tally by-severity">'), out.indexOf('<table class="tally by-pack">'));
  t.match(
    sev,
    /<tr data-key="critical" class="bad"><th scope="row">critical<\/th><td class="n">\d+<\/td><td class="n hot-fail">2<\/td>/,
  );
  t.match(
    sev,
    '<code>master-node-with-sme</code> on <span title="search-eu-west-01\nsearch-eu-north-04">2 clusters: search-eu-west-01, search-eu-north-04</span>',
  );
  const packs = [...out.matchAll(/<tr data-key="([^"]+)"[^>]*><th scope="row">/g)].map((m) => m[1]);
  t.same(packs.slice(-2), ['smdoctor', 'fleet'], 'the vendor checks, then each pack');
});

t.test('html: when everything passes, the whole fleet is the view', async (t) => {
  const r = fleetReport(2, 6);
  for (const c of r.clusters) for (const k of c.checks) k.status = 'pass';
  const out = renderReport(r, 'html');
  t.notMatch(out, 'matrix look');
  t.match(out, '<details class="passes" open><summary>The whole fleet');
  t.match(out, '<input id="only-bad" type="checkbox">');
});
