/**
 * Integers past 2^53 from the API (a 404 body, a stored document) travel the whole report exactly: every format,
 * the plan digest, a plan or report read back from its file. JSON.stringify alone throws on them (a BigInt).
 */
import t from 'tap';
import { sample } from '../../helpers/report/sample.ts';
import { cluster, BASE_LIMIT_BODY_404 } from '../../helpers/checks/big-integers.ts';
import { renderReport } from '../../../src/report/render.ts';
import { FORMATS } from '../../../src/report/formats.ts';
import { planDigest } from '../../../src/fix/plan-digest.ts';
import { parseJsonFile } from '../../../src/facts/report-file.ts';
import { baseLimitDocument } from '../../../src/checks/base-limit-document.ts';
import { parseLong } from '../../../src/base/json-long.ts';
import type { Report } from '../../../src/model/index.ts';

const BIG = 18446744073709551615n;

function bigReport(): Report {
  const r = sample();
  const check = r.clusters[0]!.checks[0]!;
  check.status = 'fail';
  check.findings.push({ message: 'answered 404', evidence: { status: 404, body: { error: { id: BIG } } } });
  check.actions.push({
    type: 'put-document',
    method: 'PUT',
    api_path: '/.sm_sme_limits_user/_doc/base_limit',
    body: { max_payload_size: BIG, extra: -BIG },
    status: 'planned',
  });
  return r;
}

t.test('every format renders an integer past 2^53 with its exact digits', async (t) => {
  for (const f of FORMATS) {
    const out = renderReport(bigReport(), f);
    if (f === 'prometheus') t.type(out, 'string', f);
    else t.match(out, '18446744073709551615', f);
  }
  t.match(renderReport(bigReport(), 'json'), /"id": 18446744073709551615\b/, 'a JSON number, not a string');
});

t.test('the plan digest is exact and the same after the plan is read back from its file', async (t) => {
  const r = bigReport();
  const digest = planDigest(r);
  const back = parseJsonFile(renderReport(r, 'json'), 'plan.json', 'a report') as Report;
  t.same(back.clusters[0]!.checks[0]!.actions[0]!.body, { max_payload_size: BIG, extra: -BIG }, 'read back exact');
  const again = parseJsonFile(renderReport(back, 'json'), 'plan.json', 'a report') as Report;
  t.equal(planDigest(again), planDigest(back), 'the same digest from the file as from the plan it holds');
  const off = bigReport();
  (off.clusters[0]!.checks[0]!.actions[0]!.body as { max_payload_size: bigint }).max_payload_size = BIG - 1n;
  t.not(planDigest(off), digest, 'one unit apart is another plan (a rounded double would not tell)');
});

t.test('base-limit-document: a 404 body holding an integer past 2^53, and a stored field that large', async (t) => {
  const res = baseLimitDocument.run(
    cluster({ baseLimitEndpoint: { statusCode: 404, body: parseLong(BASE_LIMIT_BODY_404) } }),
  );
  t.equal(res.status, 'fail');
  t.equal((res.findings[0]!.evidence!.body as { error: { id: unknown } }).error.id, BIG);
  const doc = { ...(parseLong('{"max_payload_size": 36893488147419103232}') as object) };
  const stored = baseLimitDocument.run(cluster({ stored: doc }));
  t.notMatch(stored.findings.map((f) => f.message).join('\n'), /max_payload_size/, 'an exact integer is an integer');
});
