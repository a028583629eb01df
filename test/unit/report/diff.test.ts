/** smdoctor diff, pure: regressions, fixes and what stayed per cluster and check; reports that cannot be compared. */
import t from 'tap';
import type { CheckId, CheckStatus, Report } from '../../../src/model/index.ts';
import { compareReports, diffExitCode, renderDiffMarkdown, renderDiffText } from '../../../src/report/diff.ts';
import { fixSample, sample } from '../../helpers/report/sample.ts';

const withStatus = (r: Report, id: string, status: CheckStatus): Report => {
  const c = structuredClone(r);
  c.clusters[0]!.checks.find((k) => k.id === id)!.status = status;
  return c;
};

t.test('the same report twice: everything stayed, exit 0', async (t) => {
  const c = compareReports(sample(), sample());
  t.ok(c.comparable);
  if (!c.comparable) return;
  t.same(c.counts, { regressed: 0, fixed: 0, changed: 0, stayed: 6 });
  t.equal(diffExitCode(c), 0);
});

t.test('pass to fail regressed (exit 1); fail to pass fixed (exit 0); fail to error changed', async (t) => {
  const old = sample();
  const reg = compareReports(old, withStatus(old, 'base-limit-document', 'fail'));
  t.equal(diffExitCode(reg), 1);
  if (!reg.comparable) return t.fail('comparable');
  t.same(reg.clusters[0]!.checks[0], {
    id: 'base-limit-document',
    old: 'pass',
    new: 'fail',
    change: 'regressed',
    reason: 'the base limit document is found',
  });
  t.match(renderDiffText(reg), /REGRESSED\s+base-limit-document: PASS → FAIL/);
  const fixed = compareReports(old, withStatus(old, 'master-node-with-sme', 'pass'));
  t.equal(diffExitCode(fixed), 0);
  if (fixed.comparable) t.equal(fixed.counts.fixed, 1);
  const changed = compareReports(old, withStatus(old, 'master-plugins', 'error'));
  t.equal(diffExitCode(changed), 0, 'fail to error is not a regression (it was already failing)');
  if (changed.comparable) t.equal(changed.counts.changed, 1);
  t.equal(
    diffExitCode(compareReports(old, withStatus(old, 'base-limit-document', 'error'))),
    1,
    'pass to error regressed',
  );
});

t.test('a fix report counts by the audit after applying', async (t) => {
  const c = compareReports(sample(), fixSample());
  if (!c.comparable) return t.fail('comparable');
  const first = c.clusters[0]!.checks;
  t.same(
    first.map((k) => [k.id, k.change]),
    [
      ['base-limit-document', 'stayed'],
      ['master-node-with-sme', 'stayed'],
      ['dashboards-hosts', 'stayed'],
      ['master-plugins', 'stayed'],
      ['limits-index-replicas', 'stayed'],
    ],
    'a check the audit after applying did not run counts as audited',
  );
  const after = fixSample();
  after.clusters[0]!.after!.checks[0]!.status = 'pass';
  const fixed = compareReports(sample(), after);
  t.equal(fixed.comparable && fixed.clusters[0]!.checks[1]!.change, 'fixed', 'the after state is what counts');
});

t.test('not comparable: other clusters, or another report shape, each said (exit 2)', async (t) => {
  const other = sample();
  other.clusters[1]!.api_url = 'https://10.9.9.9:9200';
  const c = compareReports(sample(), other);
  t.equal(diffExitCode(c), 2);
  t.same(!c.comparable && c.reasons, [
    'clusters only in the older report: https://10.0.1.1:9200',
    'clusters only in the newer report: https://10.9.9.9:9200',
  ]);
  const v1 = { ...sample(), schema_version: 1, version: '0.1.0' };
  const v2 = { ...sample(), schema_version: 2, version: '0.2.0' };
  const s = compareReports(v1, v2);
  t.equal(diffExitCode(s), 2);
  t.match(!s.comparable && s.reasons[0], 'schema_version 1 (smdoctor 0.1.0) and 2 (smdoctor 0.2.0)');
});

t.test('markdown escapes names from the API', async (t) => {
  const r = sample();
  r.clusters[0]!.name = 'a|b<script>';
  const md = renderDiffMarkdown(compareReports(r, r));
  t.match(md, 'a\\|b&lt;script&gt;');
  t.notMatch(md, '<script>');
});

t.test('text and markdown escape ESC and other controls in every value from the report files', async (t) => {
  const o = sample();
  const n = sample();
  n.generated_at = '2026-11-27T\x1b[2J\x1b[H';
  const k = n.clusters[0]!.checks[0]!;
  // what a reader that checks less would let through: the renderer is the last line
  k.id = 'base\x1b]0;title\x07' as CheckId;
  k.status = 'fail\x1b[8m' as CheckStatus;
  k.reason = 'r\x9b31m\u202e';
  n.clusters[0]!.name = 'n\x1b[31m';
  // markdown's heading has no times
  for (const [format, render, shows] of [
    ['text', renderDiffText, ['2026-11-27T\\x1b[2J']],
    ['markdown', renderDiffMarkdown, []],
  ] as const) {
    const out = render(compareReports(o, n));
    t.notMatch(out, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/, `${format}: no control character`);
    for (const shown of [...shows, 'base\\x1b]0;title\\x07', 'FAIL\\x1b[8M', 'r\\x9b31m\\u202e', 'n\\x1b[31m'])
      t.match(out, shown, `${format}: ${shown} shown`);
  }
});
