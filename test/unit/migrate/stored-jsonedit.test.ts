import t from 'tap';
import { replaceStrings, stringSpans } from '../../../src/migrate/stored/jsonedit.ts';

t.test('spans of string values by path; a later duplicate key wins', async (t) => {
  const text = '{"a": {"b": ["x", "y\\"z"]}, "c": "1", "c": "2", "n": -1.5}';
  const spans = stringSpans(text, [['a', 'b', 1], ['c'], ['n']]);
  t.equal(text.slice(...spans.get('["a","b",1]')!), '"y\\"z"');
  t.equal(text.slice(...spans.get('["c"]')!), '"2"');
  t.notOk(spans.has('["n"]'), 'only strings');
});

t.test('replaceStrings edits in place, or refuses when a value is not what was read', async (t) => {
  const text = '{\n\t"q": "old",\n\t"list": [ "keep", "old2" ]\n}\n';
  t.equal(
    replaceStrings(text, [
      { path: ['q'], from: 'old', to: 'new "one"' },
      { path: ['list', 1], from: 'old2', to: 'n2' },
    ]),
    '{\n\t"q": "new \\"one\\"",\n\t"list": [ "keep", "n2" ]\n}\n',
  );
  t.equal(replaceStrings(text, [{ path: ['q'], from: 'other', to: 'x' }]), undefined);
  t.equal(replaceStrings(text, [{ path: ['missing'], from: 'old', to: 'x' }]), undefined);
});
