import t from 'tap';
import { explain, type MacroDef, type RawMappings } from '../../../src/sml/index.ts';

const TEXT_KW = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
// SML.md §7 mapping
const mappings: RawMappings = {
  'logs-1': { mappings: { properties: { host: TEXT_KW, user: { type: 'text' }, code: { type: 'long' } } } },
};
const macros: MacroDef[] = [
  { name: 'web_hosts', args: [], definition: 'host=web*' },
  { name: 'eq', args: ['f', 'v'], definition: '$f$=$v$' },
  { name: 'outer', args: ['v'], definition: 'code>1 `eq(host, $v$)`' },
];
const ctx = { mappings, macros };

t.test('SML.md §7 worked examples, exactly', async (t) => {
  const rows: Array<[string, string, string[]]> = [
    ['source logs-* | search host=web01', 'source logs-* | search text host=web01', ['text_op_added']],
    ['source logs-* | search text host=web01', 'source logs-* | search text host=web01', ['has_text_op']],
    [
      'source logs-* | search user=bob code>3',
      'source logs-* | search user=bob code>3',
      ['no_keyword_subfield', 'not_text'],
    ],
    [
      'source logs-* | search NOT host IN (a, b) OR host!="c d"',
      'source logs-* | search NOT text host IN (a, b) OR text host!="c d"',
      ['text_op_added', 'text_op_added'],
    ],
    [
      'source logs-* | stats count by host | search host=x',
      'source logs-* | stats count by host | search text host=x',
      ['text_op_added'],
    ],
    ['source logs-* | search `web_hosts`', 'source logs-* | search `web_hosts`', ['manual_review']],
  ];
  for (const [q, repl, statuses] of rows) {
    const e = explain(q, ctx);
    t.equal(e.replacement, repl, q);
    t.same(
      e.search_fields.map((f) => f.status),
      statuses,
      q,
    );
    t.same(e.errors, [], q);
  }
  const m = explain('source logs-* | search `web_hosts`', ctx);
  t.match(m, {
    expansion: 'source logs-* | search host=web*',
    macros: [
      {
        name: 'web_hosts',
        expansion_position: 23,
        original: '`web_hosts`',
        expansion: 'host=web*',
        macros: [],
        search_fields: [{ name: 'host', status: 'manual_review', position: 23 }],
      },
    ],
  });
});

t.test('the structure has exactly the fields of SML.md §4', async (t) => {
  const e = explain('source logs-* | search host=a', ctx);
  t.same(Object.keys(e), ['original', 'expansion', 'macros', 'replacement', 'errors', 'search_fields']);
  t.same(Object.keys(e.search_fields[0]), ['position', 'original', 'name', 'type', 'hasTextOp', 'message', 'status']);
  const n = explain('source logs-* | search `web_hosts`', ctx).macros[0];
  t.same(Object.keys(n), ['expansion_position', 'original', 'expansion', 'name', 'macros', 'search_fields']);
});

t.test('every status of SML.md §4', async (t) => {
  const rows: Array<{ q: string; status: string; type: string; hasTextOp: boolean }> = [
    { q: 'source logs-* | search host=a', status: 'text_op_added', type: 'text', hasTextOp: false },
    { q: 'source logs-* | search `eq(host, a)`', status: 'manual_review', type: 'text', hasTextOp: false },
    { q: 'source logs-* | search text host=a', status: 'has_text_op', type: 'text', hasTextOp: true },
    { q: 'source logs-* | search user=a', status: 'no_keyword_subfield', type: 'text', hasTextOp: false },
    { q: 'source logs-* | search code=1', status: 'not_text', type: 'long', hasTextOp: false },
    { q: 'source logs-* | search host.keyword=a', status: 'not_text', type: 'keyword', hasTextOp: false },
    { q: 'source logs-* | search nope=a', status: 'unmapped', type: '', hasTextOp: false },
  ];
  for (const r of rows) {
    const [f] = explain(r.q, ctx).search_fields;
    t.match(f, { status: r.status, type: r.type, hasTextOp: r.hasTextOp, message: /\S/ }, r.q);
  }
});

t.test('the text keyword: operator only before a comparison, after white space', async (t) => {
  const rows: Array<[string, string, boolean, string]> = [
    ['source logs-* | search text=foo', 'text', false, 'source logs-* | search text=foo'],
    ['source logs-* | search text text=foo', 'text', true, 'source logs-* | search text text=foo'],
    ['source logs-* | search text = foo', 'text', false, 'source logs-* | search text = foo'],
    ['source logs-* | search host = a', 'host', false, 'source logs-* | search text host = a'],
  ];
  for (const [q, name, op, repl] of rows) {
    const e = explain(q, ctx);
    t.match(e.search_fields[0], { name, hasTextOp: op }, q);
    t.equal(e.replacement, repl, q);
  }
});

t.test('quoted values with pipes, keywords and backquotes are not commands, fields or macros', async (t) => {
  const q = 'source logs-* | search host="a | search user=b `web_hosts` OR" code=1';
  const e = explain(q, ctx);
  t.same(e.macros, []);
  t.same(
    e.search_fields.map((f) => f.name),
    ['host', 'code'],
  );
  t.equal(e.replacement, 'source logs-* | search text host="a | search user=b `web_hosts` OR" code=1');
});

t.test('several search commands, multi-line', async (t) => {
  const q = 'source logs-*\n| search host=a\n| stats count by host\n| search NOT (host=b OR user=c)';
  const e = explain(q, ctx);
  t.equal(
    e.replacement,
    'source logs-*\n| search text host=a\n| stats count by host\n| search NOT (text host=b OR user=c)',
  );
  t.same(
    e.search_fields.map((f) => f.status),
    ['text_op_added', 'text_op_added', 'no_keyword_subfield'],
  );
  for (const f of e.search_fields) t.equal(e.expansion.slice(f.position, f.position + f.name.length), f.name);
});

t.test('nested macros with arguments: tree, positions, manual review', async (t) => {
  const q = 'source logs-* | search host=z `outer(web1)`';
  const e = explain(q, ctx);
  t.equal(e.expansion, 'source logs-* | search host=z code>1 host=web1');
  t.equal(e.replacement, 'source logs-* | search text host=z `outer(web1)`');
  t.match(e.macros, [
    {
      name: 'outer',
      expansion_position: 30,
      original: '`outer(web1)`',
      expansion: 'code>1 host=web1',
      search_fields: [{ name: 'code', status: 'not_text' }],
      macros: [
        {
          name: 'eq',
          expansion_position: 7,
          original: '`eq(host, web1)`',
          expansion: 'host=web1',
          search_fields: [{ name: 'host', status: 'manual_review', position: 37 }],
        },
      ],
    },
  ]);
  t.same(
    e.search_fields.map((f) => f.position),
    [23, 30, 37],
  );
});

t.test('conflicting mappings across indices', async (t) => {
  const m: RawMappings = {
    'a-1': { mappings: { properties: { host: TEXT_KW, code: { type: 'long' } } } },
    'a-2': { mappings: { properties: { host: { type: 'keyword' }, code: { type: 'text' } } } },
    'b-1': { mappings: { properties: { host: { type: 'keyword' } } } },
  };
  const rows: Array<[string, string, string]> = [
    ['source a-* | search host=x', 'keyword,text', 'text_op_added'],
    ['source a-* | search code=x', 'long,text', 'no_keyword_subfield'],
    ['source b-* | search host=x', 'keyword', 'not_text'],
    ['source b-1, a-1 | search host=x', 'keyword,text', 'text_op_added'],
    ['source a-*,-a-1 | search host=x', 'keyword', 'not_text'],
  ];
  for (const [q, type, status] of rows)
    t.match(explain(q, { mappings: m, macros: [] }).search_fields[0], { type, status }, q);
});

t.test('both mapping response shapes, dotted names', async (t) => {
  const full: RawMappings = {
    ix: {
      mappings: {
        properties: { host: { properties: { name: TEXT_KW } }, author: { properties: { id: { type: 'long' } } } },
      },
    },
  };
  const field: RawMappings = {
    ix: {
      mappings: {
        'host.name': { full_name: 'host.name', mapping: { name: TEXT_KW } },
        'author.id': { full_name: 'author.id', mapping: { id: { type: 'long' } } },
      },
    },
  };
  for (const m of [full, field]) {
    const e = explain('source ix | search host.name=a author.id=1 host=b', { mappings: m, macros: [] });
    t.same(
      e.search_fields.map((f) => [f.type, f.status]),
      [
        ['text', 'text_op_added'],
        ['long', 'not_text'],
        [full === m ? 'object' : '', full === m ? 'not_text' : 'unmapped'],
      ],
    );
    t.equal(e.replacement, 'source ix | search text host.name=a author.id=1 host=b');
  }
});

t.test('errors never escape and block only doubtful rewrites', async (t) => {
  const rows: Array<{ q: string; codes: string[]; repl?: string }> = [
    { q: 'search host=a', codes: ['NO_SOURCE'] },
    { q: 'source nomatch-* | search host=a', codes: ['NO_INDEX_MATCH'] },
    { q: 'source logs-* | search host=a msg="open', codes: ['UNBALANCED_QUOTE'] },
    {
      q: 'source logs-* | search host=a | search (host=b',
      codes: ['UNBALANCED_PAREN'],
      repl: 'source logs-* | search text host=a | search (host=b',
    },
    { q: 'source logs-* | search host=a) ', codes: ['UNBALANCED_PAREN'] },
    { q: 'source logs-* | search host=a `web_hosts', codes: ['UNBALANCED_BACKQUOTE'] },
    {
      q: 'source logs-* | search `nope` | search host=a',
      codes: ['UNKNOWN_MACRO'],
      repl: 'source logs-* | search `nope` | search text host=a',
    },
    { q: 'source logs-* | search `eq(a)`', codes: ['MACRO_ARITY'] },
    { q: 'source logs-* | search host=', codes: ['SYNTAX'] },
    { q: 'source logs-* || search host=a', codes: ['SYNTAX'], repl: 'source logs-* || search text host=a' },
  ];
  for (const r of rows) {
    const e = explain(r.q, ctx);
    t.same(
      e.errors.map((x) => x.code),
      r.codes,
      r.q,
    );
    t.equal(e.replacement, r.repl ?? r.q, r.q);
    for (const x of e.errors) t.ok(x.position >= 0 && x.position <= r.q.length, `${r.q}: ${x.code} in bounds`);
  }
  t.match(explain('source logs-* | search host=a msg="open', ctx).search_fields[0], { status: 'manual_review' });
});

t.test('macro cycles and depth', async (t) => {
  const defs: MacroDef[] = [
    { name: 'a', args: [], definition: 'x `b`' },
    { name: 'b', args: [], definition: '`a`' },
    ...Array.from({ length: 20 }, (_, i) => ({ name: `d${i}`, args: [], definition: `\`d${i + 1}\`` })),
    { name: 'd20', args: [], definition: 'host=a' },
  ];
  const c = explain('source logs-* | search `a`', { mappings, macros: defs });
  t.match(c.errors, [{ code: 'MACRO_CYCLE', position: 23 }]);
  t.match(c.macros, [{ name: 'a', macros: [{ name: 'b', macros: [{ name: 'a', expansion: '`a`' }] }] }]);
  const d = explain('source logs-* | search `d0`', { mappings, macros: defs });
  t.match(d.errors, [{ code: 'MACRO_DEPTH', position: 23 }]);
  const ok = explain('source logs-* | search `d5`', { mappings, macros: defs });
  t.same(ok.errors, []);
  t.equal(ok.expansion, 'source logs-* | search host=a');
});
