import t, { type Test } from 'tap';
import { applyPatch } from 'diff';
import { setScalar, setList, readKey, unifiedDiff } from '../../../src/yamledit/index.ts';

const KEY = 'node.attr.node_with_sme';
const HOSTS = 'opensearch.hosts';

/** The edit, its diff applying cleanly to the original, and the read-back value. */
function checkEdit(t: Test, name: string, before: string, after: string, key: string, value: unknown) {
  const diff = unifiedDiff('/app/opensearch/config/opensearch.yml', before, after);
  t.equal(applyPatch(before, diff), after, `${name}: diff applies`);
  t.match(
    diff,
    /^--- a\/app\/opensearch\/config\/opensearch\.yml\n\+\+\+ b\/app\/opensearch\/config\/opensearch\.yml\n@@ /,
    `${name}: headers`,
  );
  t.same(readKey(after, key).found?.value, value, `${name}: reads back`);
}

t.test('setScalar keeps everything but the value', async (t) => {
  const cases: Array<{ name: string; before: string; after: string; line: number; reads: unknown }> = [
    {
      name: 'flat plain',
      before: '# top\nnode.attr.node_with_sme: true # keep me\ncluster.name: c\n',
      after: '# top\nnode.attr.node_with_sme: false # keep me\ncluster.name: c\n',
      line: 2,
      reads: false,
    },
    {
      name: 'nested',
      before: 'node:\n  name: m1\n  attr:\n    node_with_sme:   true\n    zone: a\n',
      after: 'node:\n  name: m1\n  attr:\n    node_with_sme:   false\n    zone: a\n',
      line: 4,
      reads: false,
    },
    {
      name: 'mixed',
      before: 'node.attr:\n  node_with_sme: True\n',
      after: 'node.attr:\n  node_with_sme: false\n',
      line: 2,
      reads: false,
    },
    {
      name: 'double quoted stays quoted',
      before: 'node.attr.node_with_sme: "true"\n',
      after: 'node.attr.node_with_sme: "false"\n',
      line: 1,
      reads: 'false',
    },
    {
      name: 'single quoted stays quoted',
      before: "node:\n  attr:\n    node_with_sme: 'true' # q\n",
      after: "node:\n  attr:\n    node_with_sme: 'false' # q\n",
      line: 3,
      reads: 'false',
    },
    {
      name: 'empty value',
      before: 'node.attr.node_with_sme:\nx: 1\n',
      after: 'node.attr.node_with_sme: false\nx: 1\n',
      line: 1,
      reads: false,
    },
    {
      name: 'empty value then comment',
      before: 'node.attr.node_with_sme: # c\nx: 1\n',
      after: 'node.attr.node_with_sme: false # c\nx: 1\n',
      line: 1,
      reads: false,
    },
    {
      name: 'flow map',
      before: 'node: {attr: {node_with_sme: true}}\n',
      after: 'node: {attr: {node_with_sme: false}}\n',
      line: 1,
      reads: false,
    },
    {
      name: 'absent: appended',
      before: 'cluster.name: c # x\n',
      after: 'cluster.name: c # x\nnode.attr.node_with_sme: false\n',
      line: 2,
      reads: false,
    },
    {
      name: 'absent, no final newline',
      before: 'cluster.name: c',
      after: 'cluster.name: c\nnode.attr.node_with_sme: false',
      line: 2,
      reads: false,
    },
    {
      name: 'crlf',
      before: 'a: 1\r\nnode.attr.node_with_sme: true\r\nb: 2\r\n',
      after: 'a: 1\r\nnode.attr.node_with_sme: false\r\nb: 2\r\n',
      line: 2,
      reads: false,
    },
    {
      name: 'anchor and tag kept',
      before: 'node.attr.node_with_sme: !!bool true\n',
      after: 'node.attr.node_with_sme: !!bool false\n',
      line: 1,
      reads: false,
    },
  ];
  for (const c of cases) {
    const r = setScalar(c.before, KEY, false);
    t.match(r, { ok: true, changed: true, errors: [], line: c.line }, c.name);
    t.equal(r.text, c.after, `${c.name}: exact text`);
    checkEdit(t, c.name, c.before, r.text, KEY, c.reads);
  }
  t.match(setScalar('node.attr.node_with_sme: false\n', KEY, false), {
    ok: true,
    changed: false,
    text: 'node.attr.node_with_sme: false\n',
  });
  t.equal(setScalar('a: x\n', 'a', 'needs: quoting').text, 'a: "needs: quoting"\n');
});

t.test('setScalar refuses instead of guessing', async (t) => {
  const cases = [
    {
      name: 'duplicate',
      text: 'node.attr.node_with_sme: true\nnode:\n  attr:\n    node_with_sme: true\n',
      code: 'DUPLICATE_KEY',
    },
    { name: 'unparsable', text: 'a: [1\n', code: 'BAD_INDENT' },
    { name: 'a list', text: 'node.attr.node_with_sme: [true]\n', code: 'NOT_A_SCALAR' },
    { name: 'a mapping', text: 'node.attr.node_with_sme:\n  x: 1\n', code: 'NOT_A_VALUE' },
    { name: 'flow root, absent key', text: '{a: 1}\n', code: 'NOT_A_MAP' },
  ];
  for (const c of cases) {
    const r = setScalar(c.text, KEY, false);
    t.match(r, { ok: false, changed: false, text: c.text }, c.name);
    t.ok(
      r.errors.some((e) => e.code === c.code && e.line >= 1),
      `${c.name}: ${JSON.stringify(r.errors)}`,
    );
  }
});

t.test('setList keeps the list style', async (t) => {
  const D1 = 'https://10.0.0.4:9200';
  const D2 = 'https://10.0.0.5:9200';
  const cases: Array<{ name: string; before: string; values: string[]; after: string; reads: unknown }> = [
    {
      name: 'string stays string',
      before: 'opensearch.hosts: "https://m1:9200" # one\n',
      values: [D1],
      after: `opensearch.hosts: "${D1}" # one\n`,
      reads: D1,
    },
    {
      name: 'plain string',
      before: 'server.host: 0.0.0.0\nopensearch.hosts: https://m1:9200\n',
      values: [D1],
      after: `server.host: 0.0.0.0\nopensearch.hosts: ${D1}\n`,
      reads: D1,
    },
    {
      name: 'string grows to flow list',
      before: "opensearch.hosts: 'https://m1:9200'\n",
      values: [D1, D2],
      after: `opensearch.hosts: ['${D1}', '${D2}']\n`,
      reads: [D1, D2],
    },
    {
      name: 'flow list',
      before: `opensearch.hosts: ["https://m1:9200", "${D1}"]\nserver.port: 5601\n`,
      values: [D1],
      after: `opensearch.hosts: ["${D1}"]\nserver.port: 5601\n`,
      reads: [D1],
    },
    {
      name: 'padded flow list',
      before: `opensearch.hosts: [ ${D1}, https://m1:9200, ${D2} ] # c\n`,
      values: [D1, D2],
      after: `opensearch.hosts: [ ${D1}, ${D2} ] # c\n`,
      reads: [D1, D2],
    },
    {
      name: 'block list drops one line',
      before: `a: 1\nopensearch.hosts:\n  - https://m1:9200 # master\n  # data nodes\n  - ${D1}\n  - "${D2}"\nb: 2\n`,
      values: [D1, D2],
      after: `a: 1\nopensearch.hosts:\n  # data nodes\n  - ${D1}\n  - "${D2}"\nb: 2\n`,
      reads: [D1, D2],
    },
    {
      name: 'block list, unindented, last line',
      before: `opensearch.hosts:\n- ${D1}\n- https://m1:9200`,
      values: [D1],
      after: `opensearch.hosts:\n- ${D1}`,
      reads: [D1],
    },
    {
      name: 'block list add after',
      before: `opensearch.hosts:\n  - ${D1}\n  - https://m1:9200\nx: 1\n`,
      values: [D1, D2],
      after: `opensearch.hosts:\n  - ${D1}\n  - ${D2}\nx: 1\n`,
      reads: [D1, D2],
    },
    {
      name: 'block list replace all',
      before: 'opensearch.hosts:\n  - https://m1:9200',
      values: [D1],
      after: `opensearch.hosts:\n  - ${D1}`,
      reads: [D1],
    },
    {
      name: 'nested block list',
      before: `opensearch:\n  hosts:\n    - https://m1:9200\n    - ${D1}\n  ssl.verificationMode: none\n`,
      values: [D1],
      after: `opensearch:\n  hosts:\n    - ${D1}\n  ssl.verificationMode: none\n`,
      reads: [D1],
    },
    {
      name: 'absent: one',
      before: 'server.port: 5601\n',
      values: [D1],
      after: `server.port: 5601\nopensearch.hosts: ${D1}\n`,
      reads: D1,
    },
    { name: 'absent: two', before: '', values: [D1, D2], after: `opensearch.hosts: [${D1}, ${D2}]\n`, reads: [D1, D2] },
  ];
  for (const c of cases) {
    const r = setList(c.before, HOSTS, c.values);
    t.match(r, { ok: true, changed: true, errors: [] }, c.name);
    t.equal(r.text, c.after, `${c.name}: exact text`);
    checkEdit(t, c.name, c.before, r.text, HOSTS, c.reads);
  }
  t.match(setList(`opensearch.hosts: [${D1}]\n`, HOSTS, [D1]), { ok: true, changed: false });
  t.match(setList('opensearch.hosts: [a]\n', HOSTS, []), { ok: false, errors: [{ code: 'EMPTY_LIST' }] });
  t.match(setList('opensearch.hosts:\n  x: 1\n', HOSTS, ['a']), { ok: false, errors: [{ code: 'NOT_A_VALUE' }] });
});

t.test('generated: only the value line changes and the diff applies', async (t) => {
  const lead = ['', '# header\n', 'cluster.name: prod # name\npath.data: /data\n', '\n\n# blank lines above\n'];
  const trail = ['', 'http.port: 9200\n', '# trailing comment\nnetwork.host: "0.0.0.0"\n', 'x: [a, b]\ny:\n  - c\n'];
  const spell = [
    (v: string) => `node.attr.node_with_sme: ${v}\n`,
    (v: string) => `node:\n  attr:\n    node_with_sme: ${v}\n`,
    (v: string) => `node.attr:\n  node_with_sme: ${v}   # note\n`,
    (v: string) => `node:\n  attr.node_with_sme: ${v}\n`,
  ];
  const values = [
    ['true', 'false'],
    ['"true"', '"false"'],
    ["'true'", "'false'"],
    ['TRUE', 'false'],
  ];
  let n = 0;
  for (const l of lead)
    for (const tr of trail)
      for (const s of spell)
        for (const [from, to] of values) {
          const before = l + s(from) + tr;
          const expected = l + s(to) + tr;
          const r = setScalar(before, KEY, false);
          const diff = unifiedDiff('/x.yml', before, r.text);
          if (r.text !== expected || applyPatch(before, diff) !== r.text)
            t.fail(`case ${n}: ${JSON.stringify(before)} → ${JSON.stringify(r.text)}`);
          n++;
        }
  t.equal(n, 256, 'ran every combination');
  t.pass('all combinations edited exactly');
});
