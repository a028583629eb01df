import t from 'tap';
import { macroTable, parseCall, substitute } from '../../../src/sml/calls.ts';
import { expand } from '../../../src/sml/macros.ts';

t.test('parseCall splits top-level arguments', async (t) => {
  const rows: Array<[string, unknown]> = [
    ['m', { name: 'm', args: [] }],
    ['m()', { name: 'm', args: [] }],
    ['m(a, "b, c" , f(x, y))', { name: 'm', args: ['a', '"b, c"', 'f(x, y)'] }],
    ['m(a', null],
    ['a b', null],
  ];
  for (const [s, want] of rows) t.same(parseCall(s), want, s);
});

t.test('substitution is one pass', async (t) => {
  t.equal(substitute({ name: 'm', args: ['a', 'b'], definition: '$a$=$b$ $c$' }, ['$b$', 'x']), '$b$=x $c$');
});

t.test('expansion with a position map', async (t) => {
  const table = macroTable([
    { name: 'w', args: [], definition: 'host=w*' },
    { name: 'p', args: ['f'], definition: '($f$=1 `w`)' },
  ]);
  const e = expand('a `p(code)` b', table);
  t.equal(e.expansion, 'a (code=1 host=w*) b');
  t.same(e.errors, []);
  t.match(e.nodes, [
    { name: 'p', expansion_position: 2, expansion: '(code=1 host=w*)', macros: [{ name: 'w', expansion_position: 8 }] },
  ]);
  const at = (pos: number) => e.segs.find((s) => pos >= s.start && pos < s.end)!;
  t.equal(at(0).node, null);
  t.equal(at(3).node?.name, 'p');
  t.equal(at(10).node?.name, 'w');
  t.match(at(e.expansion.length - 1), { node: null, orig: 11 });
});

t.test('errors leave the call as written', async (t) => {
  const table = macroTable([
    { name: 'one', args: ['x'], definition: '$x$' },
    { name: 'loop', args: [], definition: '`loop`' },
  ]);
  const rows: Array<[string, string]> = [
    ['`nope`', 'UNKNOWN_MACRO'],
    ['`one`', 'MACRO_ARITY'],
    ['`loop`', 'MACRO_CYCLE'],
    ['`a b`', 'MACRO_SYNTAX'],
  ];
  for (const [q, code] of rows) {
    const e = expand(`x ${q}`, table);
    t.match(e.errors, [{ code, pos: 2 }], q);
  }
  t.equal(expand('x `nope`', table).expansion, 'x `nope`');
});

t.test('exponential macros hit the budget, once', async (t) => {
  const defs = Array.from({ length: 15 }, (_, i) => ({
    name: `e${i}`,
    args: [],
    definition: `\`e${i + 1}\` \`e${i + 1}\` \`e${i + 1}\``,
  }));
  const e = expand('`e0`', macroTable([...defs, { name: 'e15', args: [], definition: 'x' }]));
  t.same(
    e.errors.map((x) => x.code),
    ['MACRO_TOO_LARGE'],
  );
  t.equal(e.errors[0].pos, 0);
});

t.test('a call met again in another query expands alike, and sees a definition changed in place', async (t) => {
  const defs = [{ name: 'by', args: ['u'], definition: 'user=$u$' }];
  const table = macroTable(defs);
  const first = expand('`by(bob)` `by(bob)`', table);
  t.equal(first.expansion, 'user=bob user=bob');
  t.equal(first.nodes.length, 2);
  t.not(first.nodes[0], first.nodes[1], 'each call has its own node');
  t.equal(expand('x `by(bob)`', table).nodes[0].expansion_position, 2);
  defs[0].definition = 'owner=$u$';
  t.equal(expand('`by(bob)`', table).expansion, 'owner=bob');
  t.same(
    expand('`by(bob`', table).errors.map((e) => e.code),
    ['MACRO_SYNTAX'],
  );
  t.same(
    expand('`by(bob`', table).errors.map((e) => e.code),
    ['MACRO_SYNTAX'],
    'a malformed call stays malformed',
  );
});
