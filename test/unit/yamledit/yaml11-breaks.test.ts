/** The engine reads its config as YAML 1.1 (SnakeYAML): NEL, U+2028, U+2029 and a lone CR end a line there too. */
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { readKey, setScalar, setList } from '../../../src/yamledit/index.ts';
import { getDotted, parseYml } from '../../../src/facts/yml.ts';
import { breakOrControlIn, yaml11Breaks } from '../../../src/base/yaml11.ts';

const BREAKS = ['\u0085', '\u2028', '\u2029', '\r'];
const escape = (s: string) => s.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `<${name(c)}>`);
const name = (b: string) => `U+${b.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The keys and values a YAML 1.1 reader (the engine) loads from the text. */
function asEngine(text: string): unknown {
  const docs = parseAllDocuments(yaml11Breaks(text), { version: '1.1' });
  return Array.isArray(docs) ? docs[0]?.toJS() : undefined;
}

t.test('a setting hidden behind a YAML 1.1 line break is read, where the engine reads it', async (t) => {
  for (const b of BREAKS) {
    for (const [how, text] of [
      ['after a value', `cluster.name: prod${b}plugins.security.allow_unsafe_democertificates: true\n`],
      ['after a comment', `# demo certs off${b}plugins.security.allow_unsafe_democertificates: true\n`],
    ] as const) {
      const doc = parseYml(text).doc;
      t.equal(getDotted(doc, 'plugins.security.allow_unsafe_democertificates'), true, `${name(b)} ${how}`);
      t.equal(readKey(text, 'plugins.security.allow_unsafe_democertificates').found?.line, 2, `${name(b)}: line 2`);
    }
  }
});

t.test('an edit never writes a raw line break or control: the engine reads exactly the one setting', async (t) => {
  const values = [
    ...BREAKS.map((b) => `r1${b}plugins.security.disabled:${b}  true`),
    'r1\nplugins.security.disabled: true',
    'tab\there',
    'bell\u0007',
    'del\u007f',
    'c1\u009b[31m',
  ];
  for (const before of [
    'cluster.name: c\n',
    'node.attr.rack: r0\n',
    "node.attr.rack: 'r0'\n",
    'node.attr.rack: "r0"\n',
  ]) {
    for (const v of values) {
      const r = setScalar(before, 'node.attr.rack', v);
      // escaped: a raw U+2028 in a test name would break the TAP stream itself
      const label = escape(`${JSON.stringify(before)} ← ${JSON.stringify(v)}`);
      t.ok(r.ok, `${label}: written`);
      t.notOk(breakOrControlIn(r.text.replace(/\n/g, '')), `${label}: no raw break or control in the text`);
      const engine = asEngine(r.text) as Record<string, unknown>;
      t.equal(engine['node.attr.rack'], v, `${label}: the engine reads the value`);
      t.notOk('plugins.security.disabled' in engine, `${label}: and no other setting`);
    }
  }
});

t.test('a list item with a break is escaped too', async (t) => {
  const r = setList('opensearch.hosts: [a]\n', 'opensearch.hosts', ['a', `b\u2028x: 1`]);
  t.ok(r.ok);
  t.same((asEngine(r.text) as Record<string, unknown>)['opensearch.hosts'], ['a', 'b\u2028x: 1']);
});
