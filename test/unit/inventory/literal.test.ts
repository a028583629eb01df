import t from 'tap';
import { pythonLiteral, shlexSplit } from '../../../src/inventory/literal.ts';
import { PyFloat } from '../../../src/inventory/pyfloat.ts';

const literals: Array<[string, unknown]> = [
  ['5', 5],
  ['-5', -5],
  ['0x1f', 31],
  ['1_000', 1000],
  ['1.5', 1.5],
  // a float Python writes otherwise than JavaScript (1000.0) keeps its Python text
  ['1e3', new PyFloat(1000)],
  ['-2.0', new PyFloat(-2)],
  ['007', '007'],
  ['True', true],
  ['False', false],
  ['None', null],
  ['true', 'true'],
  ['yes', 'yes'],
  ["'a b'", 'a b'],
  ['"x\\ty"', 'x\ty'],
  ["r'a\\n'", 'a\\n'],
  ["'a' 'b'", 'ab'],
  ['[1, "a"]', [1, 'a']],
  ['(1,)', [1]],
  ['(1)', 1],
  ["{'k': None, 2: [True]}", { k: null, 2: [true] }],
  ['5 # comment', 5],
  [' 5', ' 5'],
  ['hello world', 'hello world'],
  ['1.2.3', '1.2.3'],
  ["'open", "'open"],
  ['[1,', '[1,'],
  ['ntp.example.com', 'ntp.example.com'],
  ['{service}', '{service}'],
];
t.test('pythonLiteral is ast.literal_eval or the text', async (t) => {
  for (const [src, want] of literals) t.strictSame(pythonLiteral(src), want, src);
});

const splits: Array<[string, string[] | null]> = [
  ['h a=1 b=2', ['h', 'a=1', 'b=2']],
  ['h s="two words" t=\'x y\'', ['h', 's=two words', 't=x y']],
  ['h a=1 # trailing comment', ['h', 'a=1']],
  ['h a="q\\"uote"', ['h', 'a=q"uote']],
  ['h a=b\\ c', ['h', 'a=b c']],
  ['h a="open', null],
];
t.test('shlexSplit is shlex.split(comments=True)', async (t) => {
  for (const [src, want] of splits) {
    if (want === null) t.throws(() => shlexSplit(src), src);
    else t.strictSame(shlexSplit(src), want, src);
  }
});
