/** Redaction blanks secret values, in every escaped form smdoctor prints, and never a report's numbers or structure. */
import t from 'tap';
import { renderReport } from '../../../src/report/render.ts';
import { markSecretValue, REDACTED, redactText, rememberSecret, secretForms } from '../../../src/text/index.ts';
import { withRun } from '../../../src/base/run-scope.ts';
import { sample } from '../../helpers/report/sample.ts';
import { assertSchema } from '../../helpers/schema.ts';

t.test('vaulted numbers and short values do not blank the report: schema_version, order and counts stay', async (t) => {
  for (const vaulted of [2, 1, 3, '2', 'true', true, 0]) {
    withRun(() => {
      markSecretValue(vaulted);
      const report = { ...sample(), schema_version: 3 };
      const json = renderReport(report, 'json');
      const doc = JSON.parse(json);
      t.equal(doc.schema_version, 3, `${JSON.stringify(vaulted)}: schema_version kept`);
      t.same(
        doc.clusters[0].checks.map((c: { order: number }) => c.order),
        [1, 2, 3, 4, 5],
        `${JSON.stringify(vaulted)}: order kept`,
      );
      t.same(doc.summary, { clusters: 2, hosts: 3, unreachable: 1, checks_failed: 2 });
      t.equal(
        json,
        withRun(() => renderReport(report, 'json')),
        'the same report as a run without secrets',
      );
      assertSchema(t, json);
      t.match(renderReport(report, 'text'), /2 clusters/);
    });
  }
});

t.test(
  'the rule for short and numeric secrets: whole numbers of 6+ digits, other values of 4+ characters',
  async (t) => {
    withRun(() => {
      for (const v of [918273, 'abcd', 'abc', '12345', 2]) markSecretValue(v);
      const cases: Array<[string, string]> = [
        ['pin 918273 refused', `pin ${REDACTED} refused`],
        ['port 9182731 and 19182730', 'port 9182731 and 19182730'],
        ['abcd and abc', `${REDACTED} and abc`],
        ['12345 shards, 2 nodes', '12345 shards, 2 nodes'],
      ];
      for (const [input, want] of cases) t.equal(redactText(input), want, input);
    });
  },
);

const PW = 'S3cr"et{#Pw\\d9 \'$x/&=?';

t.test("a secret's escaped forms are blanked too: JSON, shell quoting, URL encoding", async (t) => {
  withRun(() => {
    rememberSecret(PW);
    const shown: Array<[string, string]> = [
      ['raw', `denied: ${PW}`],
      ['JSON', `value ${JSON.stringify(PW)} is not Jinja`],
      ['JSON twice', JSON.stringify(JSON.stringify(PW))],
      ['single-quoted', `sh -c 'echo ${PW.replaceAll("'", `'\\''`)}'`],
      ['double-quoted', `sh -c "echo ${PW.replace(/["\\$`]/g, '\\$&')}"`],
      ['URL-encoded', `https://h:9200/?p=${encodeURIComponent(PW)}`],
      ['form-encoded', `p=${encodeURIComponent(PW).replaceAll('%20', '+')}`],
      ['lowercase percent', `p=${encodeURIComponent(PW).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`],
    ];
    for (const [how, text] of shown) {
      const out = redactText(text);
      t.ok(out.includes(REDACTED), `${how}: blanked`);
      for (const f of secretForms(PW)) t.notOk(out.includes(f), `${how}: no form of the secret left (${f})`);
      t.notOk(out.includes('S3cr'), `${how}: nothing recoverable`);
    }
  });
});

t.test('thousands of secrets are all found, in one pass, longest form first', async (t) => {
  withRun(() => {
    const secrets = Array.from({ length: 3000 }, (_, i) => `vault-value-${i}-${(i * 7919).toString(36)}`);
    for (const s of secrets) markSecretValue(s);
    const text = secrets.map((s, i) => `node-${i} ${s} ${JSON.stringify(s + '"')}`).join('\n');
    const out = redactText(text);
    t.notMatch(out, /vault-value/);
    t.equal(out.split('\n').length, 3000);
    t.equal(out.split('\n')[7], `node-7 ${REDACTED} "${REDACTED}\\""`);
  });
});
