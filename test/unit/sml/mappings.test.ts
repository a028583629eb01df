import t from 'tap';
import { MappingIndex } from '../../../src/sml/mappings.ts';

const TEXT_KW = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };

t.test('both shapes, dotted paths, multi-fields, legacy types', async (t) => {
  const idx = new MappingIndex([
    { a: { mappings: { properties: { host: { properties: { name: TEXT_KW } }, 'dotted.key': { type: 'ip' } } } } },
    {
      b: {
        mappings: {
          'host.name': { full_name: 'host.name', mapping: { name: { type: 'keyword' } } },
          hn: { full_name: 'host.name', mapping: { name: { type: 'keyword' } } },
        },
      },
    },
    {
      c: {
        mappings: {
          _doc: {
            properties: { host: { properties: { name: { type: 'text', fields: { keyword: { type: 'text' } } } } } },
          },
        },
      },
    },
    { d: { mappings: {} } },
  ]);
  t.same(idx.indices, ['a', 'b', 'c', 'd']);
  t.same(idx.resolve(['a'], 'host.name'), { type: 'text', needsTextOp: true, anyText: true });
  t.same(idx.resolve(['a'], 'host.name.keyword'), { type: 'keyword', needsTextOp: false, anyText: false });
  t.same(idx.resolve(['a'], 'dotted.key'), { type: 'ip', needsTextOp: false, anyText: false });
  t.same(idx.resolve(['b'], 'hn'), { type: 'keyword', needsTextOp: false, anyText: false });
  t.same(
    idx.resolve(['c'], 'host.name'),
    { type: 'text', needsTextOp: false, anyText: true },
    'a keyword sub-field of another type does not count',
  );
  t.same(idx.resolve(['a', 'b', 'c', 'd'], 'host.name'), { type: 'keyword,text', needsTextOp: true, anyText: true });
  t.same(idx.resolve(['d'], 'host.name'), { type: '', needsTextOp: false, anyText: false });
});

t.test('pattern lists', async (t) => {
  const idx = new MappingIndex([{ 'logs-1': {}, 'logs-2': {}, 'win-1': {}, other: {} }]);
  const rows: Array<[string[], string[]]> = [
    [['logs-*'], ['logs-1', 'logs-2']],
    [['logs-*, win-*'], ['logs-1', 'logs-2', 'win-1']],
    [['logs-*', '-logs-2'], ['logs-1']],
    [['*'], ['logs-1', 'logs-2', 'win-1', 'other']],
    [['_all'], ['logs-1', 'logs-2', 'win-1', 'other']],
    [['other'], ['other']],
    [['nope*'], []],
  ];
  for (const [pats, want] of rows) t.same(idx.match(pats), want, pats.join(' '));
});
