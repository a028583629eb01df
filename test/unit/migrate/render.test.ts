import t from 'tap';
import { explainDetailed } from '../../../src/sml/index.ts';
import { lineCol, markInsertions, renderExplainText } from '../../../src/migrate/render.ts';
import { exitCodeOf } from '../../../src/migrate/explain.ts';
import { parseMacros, parseMappings } from '../../../src/migrate/files.ts';

const mappings = {
  l: { mappings: { properties: { host: { type: 'text', fields: { keyword: { type: 'keyword' } } } } } },
};

t.test('caret lines under insertions, per line', async (t) => {
  t.same(markInsertions('a text x\ntext y text z', [2, 4, 6], { tty: false }, ''), [
    'a text x',
    '  ^^^^^',
    'text y text z',
    '^^^^^  ^^^^^',
  ]);
  t.same(lineCol('ab\ncd', 4), { line: 2, col: 2, lineStart: 3 });
});

t.test('text rendering: fields, macros tree, errors with carets', async (t) => {
  const { explanation, insertions } = explainDetailed('source l | search host=a `m`\n| search host="x', {
    mappings,
    macros: [{ name: 'm', args: [], definition: 'host=b' }],
  });
  const out = renderExplainText(explanation, insertions, { tty: false });
  t.match(out, 'source l | search text host=a `m`\n                    ^^^^^');
  t.match(out, /macros:\n  `m` at 25 → "host=b"\n    field host  text  manual_review/);
  t.match(out, /UNBALANCED_QUOTE line 2, column 15: .*\n    \| search host="x\n {18}\^/);
  t.equal(exitCodeOf(explanation), 1);
});

t.test('exit code table', async (t) => {
  const rows: Array<[string, number]> = [
    ['source l | search host=a', 1],
    ['source l | search text host=a', 0],
    ['source l | search other=1', 0],
    ['source l | search "x', 1],
  ];
  for (const [q, code] of rows) t.equal(exitCodeOf(explainDetailed(q, { mappings, macros: [] }).explanation), code, q);
});

t.test('file parsers', async (t) => {
  t.same(parseMacros('- {name: a, definition: x}\n', 'f.yml'), [{ name: 'a', args: [], definition: 'x' }]);
  t.same(parseMacros('[{"name": "a", "args": ["x"], "definition": "$x$"}]', 'f.json'), [
    { name: 'a', args: ['x'], definition: '$x$' },
  ]);
  t.throws(() => parseMacros('- {name: a, definition: x}\n- {name: b}\n', 'f.yml'), {
    code: 'INPUT',
    pos: { file: 'f.yml', line: 2 },
  });
  t.throws(() => parseMappings('[1]', 'm.json'), { code: 'INPUT' });
  t.throws(() => parseMappings('{"i": 3}', 'm.json'), { code: 'INPUT' });
  t.throws(() => parseMappings('{\n"i": }', 'm.json'), { code: 'INPUT', pos: { file: 'm.json' } });
  t.throws(() => parseMappings('{"i":\n {"mappings": [1,\n', 'm.json'), {
    code: 'INPUT',
    pos: { file: 'm.json', line: Number },
  });
});
