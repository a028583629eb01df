import t from 'tap';
import { PageAnalyser } from '../../../src/migrate/stored/analyse.ts';
import type { StoredQuery } from '../../../src/migrate/stored/extract.ts';
import { staticMacros } from '../../../src/migrate/providers.ts';
import { compilePattern, matchPattern, type RawMappings } from '../../../src/sml/index.ts';

type Field = { type: string; fields?: Record<string, { type: string }> };
const TEXT_KW: Field = { type: 'text', fields: { keyword: { type: 'keyword' } } };

/** A cluster whose indices may appear between requests; answers like `GET <patterns>/_mapping/field/<fields>`. */
function cluster(indices: Record<string, Record<string, Field>>) {
  const asked: string[] = [];
  return {
    indices,
    asked,
    mappings: async (sources: string[][], fields: string[]): Promise<RawMappings[]> =>
      sources.map((list) => {
        asked.push(`${list.join(',')}/${fields.join(',')}`);
        const out: RawMappings = {};
        for (const [name, props] of Object.entries(indices)) {
          if (!list.some((p) => matchPattern(compilePattern(p), name))) continue;
          const m: Record<string, unknown> = {};
          for (const f of fields) if (props[f]) m[f] = { full_name: f, mapping: { [f]: props[f] } };
          out[name] = { mappings: m };
        }
        return out;
      }),
  };
}

const q = (id: string, query: string): StoredQuery => ({
  kind: 'jobs',
  doc: { index: '.jobs', id, seqNo: 0, primaryTerm: 1, source: { query } },
  ownerId: id,
  path: 'query',
  query,
});

t.test('a page decides the queries read before a new name against the mappings fetched after it', async (t) => {
  const c = cluster({ 'logs-1': { host: TEXT_KW } });
  const a = new PageAnalyser({ macros: staticMacros([]), mappings: { mappings: c.mappings } });
  const first = await a.page([q('1', 'source * | search host=a')]);
  t.equal(first[0].explanation.search_fields[0].type, 'text');
  // an index appears; the next page names a known pattern and field first, then a new pattern
  c.indices['win-1'] = { host: { type: 'keyword' } };
  const second = await a.page([
    q('2', 'source * | search host=b'),
    q('3', 'source * | search text host=c'),
    q('4', 'source win-* | search host=d'),
  ]);
  t.same(c.asked, ['*/host', 'win-*/host']);
  // query 2 was read while nothing was new, yet it sees win-1 (fetched for query 4): the same answer as
  // deciding every query after the fetch
  t.same(
    second.map((e) => [e.q.ownerId, e.explanation.search_fields.map((f) => `${f.name}:${f.type}:${f.status}`)]),
    [['2', ['host:keyword,text:text_op_added']]],
  );
  // a page naming nothing new fetches nothing
  const third = await a.page([q('5', 'source * | search host=e'), q('6', 'source win-* | search host=f')]);
  t.equal(c.asked.length, 2);
  t.same(
    third.map((e) => e.q.ownerId),
    ['5'],
  );
});
