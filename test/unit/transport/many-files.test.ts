/** One head's output over many files back into one section per file: exact bytes, gaps, limits, a faked header. */
import t from 'tap';
import { splitMany } from '../../../src/transport/many-files.ts';

const w = (tag: string, name: string) => ({ tag, name });
const H = (name: string, first = false) => `${first ? '' : '\n'}==> ${name} <==\n`;

t.test('each file exactly, with or without its last newline, empty files too', async (t) => {
  const out = `${H('/p/a', true)}65530\n${H('/p/b')}abc${H('/p/e')}${H('/dev/null')}`;
  t.same(splitMany(out, [w('a', '/p/a'), w('b', '/p/b'), w('e', '/p/e')], 100), [
    { tag: 'a', text: '65530\n' },
    { tag: 'b', text: 'abc' },
    { tag: 'e', text: '' },
  ]);
});

t.test('a file head could not open (gone, unreadable) is unread, the others are kept', async (t) => {
  const wanted = [w('a', '/p/a'), w('b', '/p/b'), w('c', '/p/c')];
  t.same(splitMany(`${H('/p/b', true)}2\n${H('/dev/null')}`, wanted, 100), [
    { tag: 'a', text: null, readCode: 1 },
    { tag: 'b', text: '2\n' },
    { tag: 'c', text: null, readCode: 1 },
  ]);
  t.same(splitMany(`${H('/p/a', true)}1\n${H('/p/c')}3\n${H('/dev/null')}`, wanted, 100), [
    { tag: 'a', text: '1\n' },
    { tag: 'b', text: null, readCode: 1 },
    { tag: 'c', text: '3\n' },
  ]);
  t.same(splitMany('', wanted.slice(0, 1), 100), [{ tag: 'a', text: null, readCode: 1 }], 'no head at all');
});

t.test('past the limit: too large, the next file still read', async (t) => {
  const out = `${H('/p/a', true)}${'x'.repeat(11)}${H('/p/b')}ok\n${H('/dev/null')}`;
  t.same(splitMany(out, [w('a', '/p/a'), w('b', '/p/b')], 10), [
    { tag: 'a', text: null, tooLarge: true },
    { tag: 'b', text: 'ok\n' },
  ]);
});

t.test('the last file cannot fake the end, and a cut output leaves it unread', async (t) => {
  const forged = `JAVA_VERSION="21"\n${H('/dev/null')}IMPLEMENTOR=x\n`;
  t.same(
    splitMany(
      `${H('/p/a', true)}1\n${H('/h/release')}${forged}${H('/dev/null')}`,
      [w('a', '/p/a'), w('jdk', '/h/release')],
      1000,
    ),
    [
      { tag: 'a', text: '1\n' },
      { tag: 'jdk', text: forged },
    ],
  );
  t.same(splitMany(`${H('/p/a', true)}12`, [w('a', '/p/a')], 100), [{ tag: 'a', text: null, readCode: 1 }]);
});

t.test('names with spaces and odd bytes are matched as given', async (t) => {
  const name = '/o d/\u00e9\u00ff';
  t.same(splitMany(`${H(name, true)}v\n${H('/dev/null')}`, [w('x', name)], 100), [{ tag: 'x', text: 'v\n' }]);
});
