import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labForFile } from '../../helpers/lab.ts';
import { clusterMacros } from '../../../src/migrate/providers.ts';
import { runCli } from '../../helpers/cli.ts';
import { requestAs } from '../../helpers/request-as.ts';

// `migrate explain` in cluster mode against the healthy lab: mappings of logs-2024.01/.02 and macros of .sm_sme_macros.
const shared = labForFile('healthy');

const explain = async (query: string, extra: string[] = [], format = 'json') => {
  const r = await runCli(['migrate', 'explain', '-i', shared.lab.inventoryPath, '--format', format, ...extra, query]);
  return { ...r, e: format === 'json' && r.out ? JSON.parse(r.out) : undefined };
};

const TEXT_KW_MSG = /mapped text with a keyword sub-field/;
const cases: Array<{ name: string; query: string; replacement?: string; code: 0 | 1; match: Record<string, unknown> }> =
  [
    // SML.md §7 worked examples, against the lab's mappings
    {
      name: '§7 text+keyword field gets the text operator',
      query: 'source logs-* | search host=web01',
      replacement: 'source logs-* | search text host=web01',
      code: 1,
      match: {
        errors: [],
        search_fields: [
          {
            position: 23,
            original: 'host',
            name: 'host',
            type: 'text',
            hasTextOp: false,
            status: 'text_op_added',
            message: TEXT_KW_MSG,
          },
        ],
      },
    },
    {
      name: '§7 text operator already there',
      query: 'source logs-* | search text host=web01',
      code: 0,
      match: { search_fields: [{ name: 'host', type: 'text', hasTextOp: true, status: 'has_text_op' }] },
    },
    {
      name: '§7 text without sub-field and long',
      query: 'source logs-* | search user=bob code>3',
      code: 0,
      match: {
        search_fields: [
          { name: 'user', type: 'text', status: 'no_keyword_subfield' },
          { name: 'code', type: 'long', status: 'not_text' },
        ],
      },
    },
    {
      name: '§7 NOT, IN and quoted values',
      query: 'source logs-* | search NOT host IN (a, b) OR host!="c d"',
      replacement: 'source logs-* | search NOT text host IN (a, b) OR text host!="c d"',
      code: 1,
      match: {
        search_fields: [
          { name: 'host', status: 'text_op_added' },
          { name: 'host', status: 'text_op_added' },
        ],
      },
    },
    {
      name: '§7 only search commands are analysed',
      query: 'source logs-* | stats count by host | search host=x',
      replacement: 'source logs-* | stats count by host | search text host=x',
      code: 1,
      match: { search_fields: [{ name: 'host', status: 'text_op_added' }] },
    },
    {
      name: '§7 macro from the lab: manual review inside the macro node',
      query: 'source logs-* | search `web_hosts`',
      code: 1,
      match: {
        expansion: 'source logs-* | search host=web*',
        macros: [
          {
            expansion_position: 23,
            original: '`web_hosts`',
            expansion: 'host=web*',
            name: 'web_hosts',
            macros: [],
            search_fields: [{ name: 'host', position: 23, status: 'manual_review' }],
          },
        ],
        search_fields: [{ name: 'host', status: 'manual_review' }],
      },
    },
    {
      name: 'nested macro with arguments: fields split between the node and its child',
      query: 'source logs-* | search `host_or_user(web01, bob)` code=1',
      code: 1,
      match: {
        expansion: 'source logs-* | search user=bob OR host=web01 code=1',
        macros: [
          {
            name: 'host_or_user',
            original: '`host_or_user(web01, bob)`',
            expansion_position: 23,
            expansion: 'user=bob OR host=web01',
            search_fields: [{ name: 'user', position: 23, status: 'no_keyword_subfield' }],
            macros: [
              {
                name: 'by_host',
                original: '`by_host(web01)`',
                expansion_position: 12,
                expansion: 'host=web01',
                macros: [],
                search_fields: [{ name: 'host', position: 35, status: 'manual_review' }],
              },
            ],
          },
        ],
        search_fields: [
          { name: 'user' },
          { name: 'host', status: 'manual_review' },
          { name: 'code', status: 'not_text' },
        ],
      },
    },
    {
      name: 'conflicting types across indices are joined; text+keyword in one index is enough',
      query: 'source logs-* | search service=web status=1',
      replacement: 'source logs-* | search text service=web status=1',
      code: 1,
      match: {
        search_fields: [
          { name: 'service', type: 'keyword,text', status: 'text_op_added' },
          { name: 'status', type: 'keyword,long', status: 'not_text' },
        ],
      },
    },
    {
      name: 'the same field in one index only',
      query: 'source logs-2024.02 | search service=web',
      code: 0,
      match: { search_fields: [{ name: 'service', type: 'keyword', status: 'not_text' }] },
    },
    {
      name: 'dotted field of an object (full_name, leaf key)',
      query: 'source logs-* | search event.action=login',
      replacement: 'source logs-* | search text event.action=login',
      code: 1,
      match: { search_fields: [{ name: 'event.action', type: 'text', status: 'text_op_added' }] },
    },
    {
      name: 'unmatched source pattern',
      query: 'source nomatch-* | search host=a',
      code: 1,
      match: {
        errors: [{ code: 'NO_INDEX_MATCH', position: 7 }],
        search_fields: [{ name: 'host', type: '', status: 'unmapped' }],
      },
    },
    {
      name: 'a missing index in the list does not hide the others',
      query: 'source logs-2024.01, nomatch | search host=a',
      replacement: 'source logs-2024.01, nomatch | search text host=a',
      code: 1,
      match: { errors: [], search_fields: [{ name: 'host', type: 'text', status: 'text_op_added' }] },
    },
    {
      name: 'free text only: the source still resolves',
      query: 'source logs-* | search error',
      code: 0,
      match: { errors: [], search_fields: [] },
    },
  ];

for (const c of cases) {
  t.test(`cluster mode: ${c.name}`, async (t) => {
    const r = await explain(c.query);
    t.equal(r.err, '', 'nothing on stderr');
    t.equal(r.code, c.code, 'exit code');
    t.equal(r.e.original, c.query);
    t.equal(r.e.replacement, c.replacement ?? c.query, 'replacement');
    t.match(r.e, c.match);
    t.equal(
      r.e.search_fields.length,
      (c.match.search_fields as unknown[] | undefined)?.length ?? r.e.search_fields.length,
      'no extra fields',
    );
  });
}

t.test('text format: caret under the insertion, field table, macro tree', async (t) => {
  const r = await explain('source logs-* | search host=web01', [], 'text');
  t.equal(r.code, 1);
  t.match(r.out, '  source logs-* | search text host=web01\n                         ^^^^^\n');
  t.match(r.out, /host\s+text\s+text_op_added/);
  t.match(r.out, 'result: 1 text operator(s) added, 0 field(s) to review by hand, 0 error(s)');
  const m = await explain('source logs-* | search `host_or_user(web01, bob)`', [], 'text');
  t.equal(m.code, 1);
  t.match(m.out, 'replacement: (unchanged)');
  t.match(m.out, /`by_host\(web01\)` at 12[^\n]*\n\s+field host\s+text\s+manual_review/);
  const ok = await explain('source logs-* | search code=1', [], 'text');
  t.equal(ok.code, 0);
  t.match(ok.out, 'result: nothing to migrate');
});

t.test('macros are read whole when the index takes several pages (scroll), and the scroll is cleared', async (t) => {
  const onePage = await clusterMacros(shared.target.api, shared.target.macrosIndex).macros();
  t.same(onePage.map((m) => m.name).sort(), ['admin_users', 'by_host', 'host_or_user', 'web_hosts']);
  t.same(await clusterMacros(shared.target.api, shared.target.macrosIndex, 1).macros(), onePage);
  const left = await requestAs<{ num_freed: number }>(shared.target.api, {
    method: 'DELETE',
    path: '/_search/scroll/_all',
  });
  t.equal(left.body.num_freed, 0, 'no scroll context left open');
});

t.test('offline with saved responses of the lab equals cluster mode', async (t) => {
  const get = async (path: string) => {
    const r = await shared.target.api.request({ method: 'GET', path });
    t.equal(r.statusCode, 200, path);
    return JSON.stringify(r.body);
  };
  const macros = await clusterMacros(shared.target.api, shared.target.macrosIndex).macros();
  const dir = t.testdir({
    'mapping.json': await get('/_mapping'),
    'fields.json': await get('/_mapping/field/*'),
    'macros.json': JSON.stringify(macros),
  });
  await writeFile(join(dir, 'macros.yml'), macros.map((m) => `- ${JSON.stringify(m)}\n`).join(''));
  for (const [mappings, macrosFile] of [
    ['mapping.json', 'macros.json'],
    ['fields.json', 'macros.yml'],
  ]) {
    for (const c of cases) {
      const live = await explain(c.query);
      const off = await explain(c.query, ['--mappings', join(dir, mappings), '--macros', join(dir, macrosFile)]);
      t.same(off.e, live.e, `${mappings}: ${c.query}`);
      t.equal(off.code, live.code, `${mappings}: exit code of ${c.query}`);
    }
  }
});
