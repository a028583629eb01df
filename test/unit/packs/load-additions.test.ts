/** The additions of 0.5 as a pack writes them: loaded into their shapes, or refused at file:line:col. */
import t from 'tap';
import { parsePack } from '../../../src/packs/load/load.ts';
import { judgeCheck } from '../../../src/packs/index.ts';
import { cluster } from '../../helpers/packs/facts.ts';

const pack = (checkLines: string[]) =>
  parsePack(
    [
      'smdoctor_pack: 1',
      'name: acme',
      'checks:',
      '  - id: c',
      '    title: T',
      '    severity: low',
      '    why: W',
      ...checkLines.map((l) => `    ${l}`),
    ].join('\n'),
    'p.yml',
  );

t.test('the new matchers and api options load', async (t) => {
  const { pack: p, problems } = pack([
    'read: { api: { path: _nodes/stats/jvm, pick: jvm.mem.heap_used_percent, each_node: true, allow_empty: true } }',
    "expect: { not_matches: '^9', contains_all: [a], length: { at_least: 1 }, empty: false, at_most: 31g }",
  ]);
  t.same(problems, []);
  const c = p!.checks[0]!;
  t.equal(c.each, 'node', 'each_node reads per node');
  t.same(c.read, {
    kind: 'api',
    path: '_nodes/stats/jvm',
    pick: 'jvm.mem.heap_used_percent',
    allowEmpty: true,
    eachNode: true,
  });
  t.same(c.expect, [
    { kind: 'not_matches', regex: '^9' },
    { kind: 'contains_all', values: ['a'] },
    { kind: 'length', atLeast: 1 },
    { kind: 'empty', value: false },
    { kind: 'at_most', value: 31 * 2 ** 30, size: true },
  ]);
  const ex = pack(['read: plugins', 'expect: { same_on_nodes: { except: [sm-sigma] } }']);
  t.same(ex.pack!.checks[0]!.expect, [{ kind: 'same_on_nodes', except: ['sm-sigma'] }]);
});

t.test('refused: each_node with each: cluster, length without a bound, empty: yes', async (t) => {
  const a = pack([
    'each: cluster',
    'read: { api: { path: _nodes, pick: nodes, each_node: true } }',
    'expect: { present: true }',
  ]);
  t.match(a.problems, [{ line: 8, message: /each_node: true is read per node: each must be node/ }]);
  const l = pack(['read: keystore', 'expect: { length: {} }']);
  t.match(l.problems, [{ line: 9, message: /length needs at_least, at_most or both/ }]);
  const e = pack(['read: keystore', "expect: { empty: 'yes' }"]);
  t.match(e.problems, [{ line: 9, message: /empty must be true or false/ }]);
});

t.test('sizes in findings are readable', async (t) => {
  const { pack: p } = pack(['read: { setting: a.b }', 'expect: { at_most: 31g }']);
  const facts = cluster([{ name: 'n1', yml: 'a.b: 33g' }]);
  const r = judgeCheck(p!.checks[0]!, facts, 6, { now: new Date() });
  t.match(r.findings[0]?.message, /n1: setting a\.b is "33g" \(33\.0 GiB\), above 33285996544 \(31\.0 GiB\)/);
});
