import t from 'tap';
import { redactText } from '../../../src/text/index.ts';
import { setScalar, unifiedDiff } from '../../../src/yamledit/index.ts';

const SECRETS = [
  'hunter2-folded',
  'hunter2-literal',
  'hunter2-more',
  'hunter2-dq',
  'hunter2-sq',
  'hunter2-flow',
  'hunter2-plain',
  'hunter2-nested',
];

const YML = [
  'cluster.name: c1',
  'opensearch.ssl.keyPassphrase: >-',
  '  hunter2-folded',
  'plugins.security.ssl.http.pemkey_password: |',
  '  hunter2-literal',
  '',
  '  hunter2-more',
  'a.secret: "hunter2-dq',
  '  continued"',
  "b.secret: 'hunter2-sq",
  "  it''s continued'",
  'c: {keyPassphrase: hunter2-flow, other: 1}',
  'd.password: hunter2-plain',
  '  still-plain',
  'e.token:',
  '  nested: hunter2-nested',
  'node.attr.node_with_sme: true',
  'tail: 1',
  '',
].join('\n');

t.test(
  'secret values: a diff never shows a secret, however YAML writes it (block, quoted multi-line, flow, nested)',
  async (t) => {
    const edit = setScalar(YML, 'node.attr.node_with_sme', false);
    t.ok(edit.ok);
    t.ok(edit.text.includes('hunter2-folded'), 'the edit itself keeps the secret');
    const diff = unifiedDiff('/app/opensearch/config/opensearch.yml', YML, edit.text);
    for (const s of SECRETS) t.notOk(diff.includes(s), `${s} is not in the diff`);
    t.notOk(diff.includes('continued'), 'quoted continuation lines are blanked');
    t.match(diff, /-node\.attr\.node_with_sme: true\n\+node\.attr\.node_with_sme: false/);
    t.match(diff, /^ tail: 1$/m, 'other lines are shown as they are');
  },
);

t.test('secret values: a hunk that starts inside a block value shows none of it', async (t) => {
  const text =
    'opensearch.ssl.keyPassphrase: |\n  line-one\n  hunter2-a\n  hunter2-b\n  hunter2-c\nnode.attr.node_with_sme: true\n';
  const edit = setScalar(text, 'node.attr.node_with_sme', false);
  const diff = unifiedDiff('x.yml', text, edit.text);
  t.notMatch(diff, /hunter2/);
  t.match(diff, /^ {3}\*{8}$/m, 'the value lines stay, blanked');
});

t.test('secret values: redactText blanks every line of a secret value, in files and in diffs', async (t) => {
  const out = redactText(YML);
  for (const s of SECRETS) t.notOk(out.includes(s), s);
  t.match(out, /^cluster\.name: c1$/m);
  t.match(out, /^tail: 1$/m);
  t.equal(out.split('\n').length, YML.split('\n').length, 'line for line');
  t.equal(redactText('+x.password: >-\n+  hunter2\n+y: 1\n'), '+x.password: ********\n+  ********\n+y: 1\n');
});
