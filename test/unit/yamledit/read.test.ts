import t from 'tap';
import { readKey, parseYaml } from '../../../src/yamledit/index.ts';

const KEY = 'node.attr.node_with_sme';

t.test('reads a dotted key however it is spelled', async (t) => {
  const cases: Array<{ name: string; text: string; value: unknown; line: number; style: string }> = [
    { name: 'flat', text: 'cluster.name: c\nnode.attr.node_with_sme: true\n', value: true, line: 2, style: 'plain' },
    {
      name: 'nested',
      text: 'node:\n  name: m1\n  attr:\n    node_with_sme: true # why\n',
      value: true,
      line: 4,
      style: 'plain',
    },
    {
      name: 'mixed node.attr',
      text: '# c\nnode.attr:\n  zone: a\n  node_with_sme: false\n',
      value: false,
      line: 4,
      style: 'plain',
    },
    { name: 'mixed node', text: 'node:\n  attr.node_with_sme: "true"\n', value: 'true', line: 2, style: 'double' },
    { name: 'single quoted', text: "node.attr.node_with_sme: 'true'\n", value: 'true', line: 1, style: 'single' },
    { name: 'flow map', text: 'node: {attr: {node_with_sme: true}}\n', value: true, line: 1, style: 'plain' },
    { name: 'empty value', text: 'node.attr.node_with_sme:\nx: 1\n', value: null, line: 1, style: 'plain' },
  ];
  for (const c of cases) {
    const r = readKey(c.text, KEY);
    t.same(r.errors, [], `${c.name}: no errors`);
    t.match(r.found, { key: KEY, value: c.value, line: c.line, style: c.style }, c.name);
  }
});

t.test('absent keys and lists', async (t) => {
  t.same(readKey('node.attr.other: true\nnode:\n  name: x\n', KEY), { found: null, errors: [] });
  t.same(readKey('', KEY), { found: null, errors: [] });
  t.same(readKey('# nothing\n', KEY), { found: null, errors: [] });
  t.match(readKey('node.roles: [cluster_manager, data]\n', 'node.roles').found, {
    value: ['cluster_manager', 'data'],
    style: 'flow-seq',
  });
  t.match(readKey('node:\n  roles:\n    - data\n', 'node.roles').found, {
    value: ['data'],
    style: 'block-seq',
    line: 3,
  });
});

t.test('bad YAML and duplicates are positioned errors, never throws', async (t) => {
  const cases: Array<{ name: string; text: string; code: string; line: number }> = [
    {
      name: 'same key twice',
      text: 'a: 1\nnode.attr.node_with_sme: true\nnode.attr.node_with_sme: false\n',
      code: 'DUPLICATE_KEY',
      line: 3,
    },
    {
      name: 'flat and nested',
      text: 'node.attr.node_with_sme: true\nnode:\n  attr:\n    node_with_sme: false\n',
      code: 'DUPLICATE_KEY',
      line: 4,
    },
    {
      name: 'mixed and flat',
      text: 'node.attr:\n  node_with_sme: true\nnode.attr.node_with_sme: true\n',
      code: 'DUPLICATE_KEY',
      line: 3,
    },
    { name: 'unclosed flow', text: 'a: 1\nb: [x, y\n', code: 'BAD_INDENT', line: 3 },
    { name: 'bad indentation', text: 'a:\n  b: 1\n c: 2\n', code: 'BAD_INDENT', line: 3 },
    { name: 'two documents', text: 'a: 1\n---\nb: 2\n', code: 'MULTIPLE_DOCS', line: 2 },
    { name: 'not a mapping', text: '- a\n- b\n', code: 'NOT_A_MAP', line: 1 },
  ];
  for (const c of cases) {
    const r = readKey(c.text, KEY);
    t.equal(r.found, null, c.name);
    t.ok(r.errors.length > 0, `${c.name}: has errors`);
    t.ok(
      r.errors.some((e) => typeof e.code === 'string' && e.line >= 1 && e.col >= 1),
      `${c.name}: positioned`,
    );
    t.ok(
      r.errors.some((e) => e.code === c.code),
      `${c.name}: code ${c.code} in ${JSON.stringify(r.errors)}`,
    );
    t.ok(
      r.errors.some((e) => e.line <= c.line),
      `${c.name}: near line ${c.line}`,
    );
  }
  t.match(parseYaml('node.attr.x: 1\nnode:\n  attr:\n    x: 2\n').errors, [
    { code: 'DUPLICATE_KEY', line: 4, message: /first at line 1/ },
  ]);
});
