import t from 'tap';
import { lex } from '../../../src/sml/lexer.ts';

const kinds = (s: string) => lex(s).tokens.map((k) => `${k.kind}:${s.slice(k.start, k.end)}`);

t.test('tokens with offsets', async (t) => {
  const rows: Array<[string, string[]]> = [
    ['host=web01', ['word:host', 'op:=', 'word:web01']],
    [
      'a!=b c<=1 d>=2 e<3 f>4',
      [
        'word:a',
        'op:!=',
        'word:b',
        'word:c',
        'op:<=',
        'word:1',
        'word:d',
        'op:>=',
        'word:2',
        'word:e',
        'op:<',
        'word:3',
        'word:f',
        'op:>',
        'word:4',
      ],
    ],
    ['x="a | \\"b\\" `m`" | y', ['word:x', 'op:=', 'string:"a | \\"b\\" `m`"', 'pipe:|', 'word:y']],
    [
      '`m(a, "b")` (c,[d])',
      ['macro:`m(a, "b")`', 'lparen:(', 'word:c', 'comma:,', 'lbracket:[', 'word:d', 'rbracket:]', 'rparen:)'],
    ],
    ['wow! héllo\u{1F600}', ['word:wow!', 'word:héllo\u{1F600}']],
  ];
  for (const [s, want] of rows) t.same(kinds(s), want, s);
  t.same(
    lex('a \n b').tokens.map((k) => [k.start, k.end, k.ws]),
    [
      [0, 1, true],
      [4, 5, true],
    ],
  );
});

t.test('unclosed quote and backquote run to the end, with an error', async (t) => {
  t.match(lex('a "b | c'), {
    tokens: [{}, { kind: 'string', start: 2, end: 8 }],
    errors: [{ code: 'UNBALANCED_QUOTE', pos: 2 }],
  });
  t.match(lex('a `b | c'), {
    tokens: [{}, { kind: 'macro', start: 2, end: 8 }],
    errors: [{ code: 'UNBALANCED_BACKQUOTE', pos: 2 }],
  });
  t.match(lex('"a\\"'), { errors: [{ code: 'UNBALANCED_QUOTE' }] });
});
