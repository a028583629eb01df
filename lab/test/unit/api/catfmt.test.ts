import t from 'tap';
import { pickColumns, renderCat, renderCatText, sortRows, type CatColumn } from '../../../src/api/catfmt.ts';
import { roleLetters } from '../../../src/api/cat.ts';

const COLS: CatColumn[] = [
  { name: 'ip', dflt: true },
  { name: 'heap.percent', aliases: ['hp'], dflt: true, right: true },
  { name: 'cluster_manager', aliases: ['cm', 'm', 'master'], dflt: true },
  { name: 'name', aliases: ['n'], dflt: true },
  { name: 'pid' },
];
const ROWS = [
  { ip: '127.0.0.1', 'heap.percent': '9', cluster_manager: '*', name: 'node-b', pid: '10' },
  { ip: '127.0.0.22', 'heap.percent': '45', cluster_manager: '-', name: 'node-a', pid: null },
];

t.test('h= picks columns in order, keys are the names asked, unknown names dropped', async (t) => {
  const cases: Array<[string | undefined, string[]]> = [
    [undefined, ['ip', 'heap.percent', 'cluster_manager', 'name']],
    ['master,n', ['master', 'n']],
    ['name,bogus,cm', ['name', 'cm']],
    ['heap*', ['heap.percent']],
    ['pid', ['pid']],
  ];
  for (const [h, keys] of cases)
    t.same(
      pickColumns(COLS, h).map((p) => p.key),
      keys,
      `h=${h}`,
    );
});

t.test('json: array of string-or-null objects keyed by the asked alias', async (t) => {
  const r = renderCat(COLS, ROWS, { format: 'json', h: 'n,m,pid' });
  t.same(r.body, [
    { n: 'node-b', m: '*', pid: '10' },
    { n: 'node-a', m: '-', pid: null },
  ]);
});

t.test('text: padded columns, numbers right-aligned, header only with v', async (t) => {
  const plain = renderCat(COLS, ROWS, {}).text!;
  t.equal(plain.split('\n').length, 3, 'two rows and a final newline');
  t.notMatch(plain, /heap\.percent/);
  const withHeader = renderCat(COLS, ROWS, { v: 'true' }).text!;
  const lines = withHeader.trimEnd().split('\n');
  t.match(lines[0], /^ip\s+heap\.percent cluster_manager name\s*$/);
  t.match(lines[1], /^127\.0\.0\.1 {2}\s+9 \* +node-b$/);
  t.equal(lines[1].length, lines[2].length, 'every line padded to the same width');
  t.equal(renderCat(COLS, ROWS, { v: '' }).text, withHeader, 'v without value counts as true');
  t.equal(renderCatText([{ key: 'x', col: { name: 'x' } }], [{ x: null }], false), '\n', 'null prints empty');
});

t.test('s= sorts numerically or by text, desc and by alias', async (t) => {
  t.same(
    sortRows(COLS, ROWS, 'hp:desc').map((r) => r.name),
    ['node-a', 'node-b'],
  );
  t.same(
    sortRows(COLS, ROWS, 'heap.percent').map((r) => r.name),
    ['node-b', 'node-a'],
    'numeric, not lexical',
  );
  t.same(
    sortRows(COLS, ROWS, 'n').map((r) => r.name),
    ['node-a', 'node-b'],
  );
  t.throws(() => sortRows(COLS, ROWS, 'nope'), { name: 'ApiFailure', status: 400 });
});

t.test('node.role letters', async (t) => {
  const cases: Array<[string[], string]> = [
    [['cluster_manager', 'data', 'ingest', 'remote_cluster_client'], 'dimr'],
    [['master'], 'm'],
    [['search', 'data'], 'ds'],
    [[], '-'],
    [['ml'], '-'],
  ];
  for (const [roles, want] of cases) t.equal(roleLetters(roles), want, roles.join(','));
});
