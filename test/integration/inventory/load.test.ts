import t from 'tap';
import { join } from 'node:path';
import { loadInventory, parseInventory } from '../../../src/inventory/load.ts';
import { InputError } from '../../../src/base/errors.ts';
import type { Inventory } from '../../../src/inventory/types.ts';
import { ansibleView } from '../../helpers/inventory/ansible.ts';
import { docExamples, ownCases } from '../../helpers/inventory/fixtures.ts';

const view = (inv: Inventory) =>
  Object.fromEntries([...inv.hosts].map(([k, h]) => [k, { groups: h.groups, vars: h.vars }]));

for (const c of [...docExamples, ...ownCases]) {
  t.test(`same as ansible-inventory: ${c.name}`, async (t) => {
    const dir = t.testdir({ 'inv.ini': c.ini, 'inv.yml': c.yaml });
    const [ini, yml] = await Promise.all([loadInventory(join(dir, 'inv.ini')), loadInventory(join(dir, 'inv.yml'))]);
    const [ai, ay] = await Promise.all([ansibleView(join(dir, 'inv.ini')), ansibleView(join(dir, 'inv.yml'))]);
    t.strictSame(view(ini), ai.hosts, 'INI');
    t.strictSame(view(yml), ay.hosts, 'YAML');
    t.strictSame(view(ini), view(yml), 'both formats read alike');
    t.ok(ini.hosts.size > 0);
  });
}

t.test('precedence outcome, spelled out', async (t) => {
  const inv = parseInventory(ownCases[0].ini, 'p.ini');
  t.match(inv.hosts.get('h1')!.vars, { x: 'alpha', y: 'zeta', role: 'host' });
  // alpha sits deeper (under parent) than zeta, so it wins although its name sorts first; parent vs zeta: same depth, later name
  t.match(inv.hosts.get('h2')!.vars, { x: 'alpha', y: 'zeta', role: 'alpha' });
  const prio = parseInventory(docExamples[6].yaml, 'p.yml');
  t.equal(prio.hosts.get('h1')!.vars.testvar, 'a', 'ansible_group_priority 10 beats the later name');
});

t.test('ranges expand in both formats', async (t) => {
  for (const [file, text] of [
    ['r.ini', docExamples[2].ini],
    ['r.yml', docExamples[2].yaml],
  ]) {
    const inv = parseInventory(text, file);
    t.equal(inv.groups.get('webservers')!.hosts.length, 50);
    t.strictSame(
      inv.groups.get('databases')!.hosts,
      ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `db-${x}.example.com`),
    );
    t.strictSame(inv.groups.get('stride')!.hosts, ['n0', 'n2', 'n4', 'n6', 'n8', 'n10']);
    t.equal(inv.groups.get('odd')!.hosts[1], 'www03.example.com');
  }
});

t.test('content decides the format when the name does not', async (t) => {
  t.ok(parseInventory('web1\nweb2 x=1\n', 'hosts').hosts.has('web2'), 'no extension, INI content');
  t.ok(parseInventory('all:\n  hosts:\n    a:\n', 'hosts').hosts.has('a'), 'no extension, YAML content');
  t.ok(parseInventory('{"all": {"hosts": {"j": null}}}', 'inv.json').hosts.has('j'), 'JSON');
  t.equal(parseInventory('', 'empty.yml').hosts.size, 0);
});

t.test('what Ansible only warns about is skipped with a positioned warning', async (t) => {
  const inv = parseInventory('all:\n  host:\n    a:\n  hosts:\n    b:\nweb: foo\n', 'w.yml');
  t.strictSame([...inv.hosts.keys()], ['b']);
  t.match(inv.warnings, [
    { pos: { file: 'w.yml', line: 2 }, message: /unexpected key 'host'/ },
    { pos: { line: 6 }, message: /skipping 'web'/ },
  ]);
});

const errors: Array<{ name: string; file: string; text: string; line: number; msg: RegExp; count?: number }> = [
  { name: 'YAML syntax', file: 'e.yml', text: 'all:\n  hosts:\n    a: [1, 2\n', line: 4, msg: /YAML syntax/ },
  {
    name: 'hosts as a list',
    file: 'e.yml',
    text: 'all:\n  hosts:\n    - a\n    - b\n',
    line: 3,
    msg: /"hosts" of group "all" must be a mapping/,
  },
  {
    name: 'scalar child group',
    file: 'e.yml',
    text: 'all:\n  children:\n    web: foo\n',
    line: 3,
    msg: /child 'web' of group 'all'/,
  },
  {
    name: 'empty ansible_host',
    file: 'e.yml',
    text: 'web:\n  hosts:\n    a:\n      ansible_host:\n',
    line: 3,
    msg: /empty ansible_host/,
  },
  { name: 'numeric host name', file: 'e.yml', text: 'web:\n  hosts:\n    10:\n', line: 3, msg: /must be a string/ },
  {
    name: 'YAML cycle',
    file: 'e.yml',
    text: 'a:\n  children:\n    b:\n      children:\n        a:\n',
    line: 3,
    msg: /cycle: a -> b -> a/,
  },
  {
    name: 'INI cycle',
    file: 'e.ini',
    text: '[a:children]\nb\n[b:children]\nc\n[c:children]\na\n[a]\n',
    line: 6,
    msg: /cycle: c -> a -> b -> c/,
  },
  {
    name: 'INI section with spaces',
    file: 'e.ini',
    text: '[web servers]\nh\n',
    line: 1,
    msg: /invalid section header/,
  },
  { name: 'INI unknown section type', file: 'e.ini', text: 'h0\n[web:hosts2]\nh\n', line: 2, msg: /unknown type/ },
  {
    name: 'INI bad k=v in :vars',
    file: 'e.ini',
    text: '[web]\nh\n[web:vars]\nnovalue\n',
    line: 4,
    msg: /expected key=value/,
  },
  {
    name: 'INI bad host variable',
    file: 'e.ini',
    text: '[web]\nh port 22\n',
    line: 2,
    msg: /expected key=value host variable, got 'port'/,
  },
  { name: 'INI unclosed quote', file: 'e.ini', text: '[web]\nh a="x\n', line: 2, msg: /closing quotation/ },
  {
    name: 'INI undefined child',
    file: 'e.ini',
    text: '[a:children]\nghost\n',
    line: 2,
    msg: /undefined group 'ghost'/,
  },
  {
    name: 'INI vars for undefined group',
    file: 'e.ini',
    text: '[ghost:vars]\nx=1\n',
    line: 1,
    msg: /not defined anywhere/,
  },
  {
    name: 'INI empty ansible_host',
    file: 'e.ini',
    text: '[a]\nh ansible_host=""\n',
    line: 2,
    msg: /empty ansible_host/,
  },
  {
    name: 'all errors are collected',
    file: 'e.ini',
    text: '[a b]\n[web]\nh x\n[web:vars]\nnope\n',
    line: 1,
    msg: /3 problems[^]*e\.ini:3:[^]*e\.ini:5:/,
  },
];
for (const e of errors) {
  t.test(`input error: ${e.name}`, async (t) => {
    const err = t.throws(() => parseInventory(e.text, e.file)) as unknown;
    t.type(err, InputError);
    t.match(err, { code: 'INPUT', pos: { file: e.file, line: e.line }, message: e.msg });
  });
}

t.test('an unreadable file is an input error', async (t) => {
  await t.rejects(loadInventory('/nonexistent/inv.yml'), { code: 'INPUT', pos: { file: '/nonexistent/inv.yml' } });
});
