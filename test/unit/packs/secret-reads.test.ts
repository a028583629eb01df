/**
 * A secret-named setting's value reaches no report, through any ordinary check that reads it: a matcher's error on the
 * secret itself, a `file` source matching its line, a `same_as` operand naming it. Every format, long and short secrets.
 */
import t from 'tap';
import { judgeCheck } from '../../../src/packs/index.ts';
import { renderReport } from '../../../src/report/render.ts';
import { withRun } from '../../../src/base/run-scope.ts';
import { parseYml, secretValues } from '../../../src/facts/yml.ts';
import { rememberSecret } from '../../../src/text/index.ts';
import type { PackMatcher, PackSource } from '../../../src/model/pack.ts';
import type { Report } from '../../../src/model/index.ts';
import { check, cluster } from '../../helpers/packs/facts.ts';
import { sample } from '../../helpers/report/sample.ts';

const KEY = 'plugins.security.ssl.http.keystore_password';
// a long one (searched for in every output), a short one (too short to search for: the judge must keep it out)
const SECRETS = ['Hunter2-keystore-pass', 'Q9z'];
const FORMATS = ['text', 'json', 'markdown', 'junit', 'html'] as const;

const PATHS: Array<[string, PackSource, PackMatcher[]]> = [
  ['a matcher error on the secret', { kind: 'setting', key: KEY }, [{ kind: 'at_least', value: 12 }]],
  [
    'a file source matching its line',
    { kind: 'file', path: 'config/opensearch.yml', match: '^plugins\\.security\\.ssl\\.http\\.(.*)$' },
    [{ kind: 'present', value: false }],
  ],
  [
    'a file source capturing the value alone',
    { kind: 'file', path: 'config/opensearch.yml', match: 'keystore_password: (\\S+)' },
    [{ kind: 'equals', value: 'changeit' }],
  ],
  [
    'a same_as operand naming the secret',
    { kind: 'setting', key: 'cluster.name' },
    [{ kind: 'same_as', source: { kind: 'setting', key: KEY } }],
  ],
];

/** The report of one check judged on a node whose config holds the secret. */
function reportOf(secret: string, read: PackSource, expect: PackMatcher[]): Report {
  const yml = `cluster.name: prod\n${KEY}: ${secret}\n`;
  const facts = cluster([{ name: 'n1', yml, reads: { files: { 'search:config/opensearch.yml': { text: yml } } } }]);
  const result = judgeCheck(check(read, expect), facts, 6, { now: new Date('2026-11-27T00:00:00Z') });
  const r = sample();
  r.clusters[0]!.checks = [result];
  return r;
}

t.test('every path, every format: the secret is in no byte of the output', async (t) => {
  for (const secret of SECRETS) {
    for (const [path, read, expect] of PATHS) {
      withRun(() => {
        // what audit does with every config it gathers
        for (const v of secretValues(parseYml(`${KEY}: ${secret}\n`).doc, null)) rememberSecret(v);
        const report = reportOf(secret, read, expect);
        t.not(report.clusters[0]!.checks[0]!.status, 'pass', `${path}: the check read the value`);
        for (const format of FORMATS)
          t.notOk(renderReport(report, format).includes(secret), `${secret.length} chars, ${path}, ${format}`);
      });
    }
  }
});

t.test('the judged result itself carries no secret, even one too short to search for', async (t) => {
  for (const [path, read, expect] of PATHS) {
    const r = reportOf('Q9z', read, expect).clusters[0]!.checks[0]!;
    t.notMatch(JSON.stringify(r), /Q9z/, path);
  }
});

t.test('the secret values of a config: written, nested, in a list, and resolved from the environment', async (t) => {
  const doc = parseYml(
    [
      'plugins.security.ssl.http.keystore_password: one-secret',
      'plugins:',
      '  security:',
      '    ssl.transport.keystore_password: two-secret',
      's3.client.default.secret_key: [three-secret]',
      'bootstrap.password: ${BOOT_PW}',
      'cluster.name: not-a-secret',
    ].join('\n'),
  ).doc;
  t.same(secretValues(doc, { BOOT_PW: 'four-secret' }).sort(), [
    '${BOOT_PW}',
    'four-secret',
    'one-secret',
    'three-secret',
    'two-secret',
  ]);
});
