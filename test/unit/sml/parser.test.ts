import t from 'tap';
import { lex } from '../../../src/sml/lexer.ts';
import { parse } from '../../../src/sml/parser.ts';

const p = (s: string) => parse(s, lex(s).tokens);

t.test('commands, sources and comparisons with positions', async (t) => {
  const s =
    'source logs-*, "win-*" | stats count by host | search text host=a NOT (user IN (a, b) OR code>=3) free "text" | search x=1';
  const r = p(s);
  t.same(r.errors, []);
  t.same(
    r.commands.map((c) => c.kind),
    ['source', 'other', 'search', 'search'],
  );
  t.same(
    r.commands[0].patterns.map((x) => x.value),
    ['logs-*', 'win-*'],
  );
  t.same(
    r.commands[2].comparisons.map((c) => [c.field, c.textOp, s.slice(c.start, c.end)]),
    [
      ['host', true, 'host'],
      ['user', false, 'user'],
      ['code', false, 'code'],
    ],
  );
});

t.test('grammar corners', async (t) => {
  const rows: Array<[string, string[], string[]]> = [
    ['search text=foo', ['text'], []],
    ['search text text=foo', ['text'], []],
    ['search a=b=c d', ['a'], []],
    ['search a = "x" AND b IN (1) OR NOT c<2', ['a', 'b', 'c'], []],
    ['search 9x=1 IN=2', [], []],
    ['search [search host=a | head 1] b=2', ['b'], []],
    ['search a= OR b=1', ['a', 'b'], ['SYNTAX']],
    ['search OR a=1', ['a'], ['SYNTAX']],
    ['search (a=1', ['a'], ['UNBALANCED_PAREN']],
    ['search a IN (1, 2', ['a'], ['UNBALANCED_PAREN']],
    ['search a=1 ]', ['a'], ['UNBALANCED_BRACKET']],
    ['search', [], ['SYNTAX']],
  ];
  for (const [s, fields, codes] of rows) {
    const r = p(s);
    t.same(
      r.commands.flatMap((c) => c.comparisons.map((x) => x.field)),
      fields,
      s,
    );
    t.same([...new Set(r.errors.map((e) => e.code))], codes, s);
  }
});

t.test('pipes inside parentheses and brackets do not split', async (t) => {
  t.equal(p('eval x=f(a | b) | search [a | b] c=1').commands.length, 2);
});
