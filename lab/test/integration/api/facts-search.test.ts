/** OpenSearch's mappings and its ways of reading many documents (scroll, PIT, search_after), through the official client. */
import t from 'tap';
import { startLab, call, type Req } from '../../helpers/api-fixture.ts';

const lab = await startLab(t);
const req = (method: string, path: string, body?: unknown, querystring: Record<string, unknown> = {}) =>
  call(lab, { method, path, querystring, ...(body === undefined ? {} : { body }) } as Req);

const TEXT = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };

t.test('GET _mapping and _mapping/field: the exact shapes, leaf-name key, missing field', async (t) => {
  t.same((await req('GET', '/logs/_mapping')).body.logs.mappings.properties.message, TEXT);
  const cases: Array<[string, unknown]> = [
    ['message', { logs: { mappings: { message: { full_name: 'message', mapping: { message: TEXT } } } } }],
    ['author.id', { logs: { mappings: { 'author.id': { full_name: 'author.id', mapping: { id: TEXT } } } } }],
    [
      'author.id.keyword',
      {
        logs: {
          mappings: {
            'author.id.keyword': { full_name: 'author.id.keyword', mapping: { keyword: TEXT.fields.keyword } },
          },
        },
      },
    ],
    ['level,absent', { logs: { mappings: { level: { full_name: 'level', mapping: { level: { type: 'long' } } } } } }],
    ['absent', { logs: { mappings: {} } }],
  ];
  for (const [fields, want] of cases) t.same((await req('GET', `/logs/_mapping/field/${fields}`)).body, want, fields);
});

t.test(
  'scroll and point in time both carry _seq_no/_primary_term on every page with seq_no_primary_term',
  async (t) => {
    const pages: Array<[string, () => Promise<any[][]>]> = [
      [
        'scroll',
        async () => {
          const out: any[][] = [];
          let r = await req('POST', '/.sm_jsc_jobs/_search', { size: 12 }, { scroll: '1m', seq_no_primary_term: true });
          const id = r.body._scroll_id;
          t.type(id, 'string');
          while (r.body.hits.hits.length) {
            out.push(r.body.hits.hits);
            r = await req('POST', '/_search/scroll', { scroll: '1m', scroll_id: id });
          }
          t.match(await req('DELETE', '/_search/scroll', { scroll_id: [id] }), {
            statusCode: 200,
            body: { succeeded: true },
          });
          return out;
        },
      ],
      [
        'pit',
        async () => {
          const out: any[][] = [];
          const pit = (await req('POST', '/.sm_jsc_jobs/_search/point_in_time', undefined, { keep_alive: '1m' })).body
            .pit_id;
          t.type(pit, 'string');
          let after: unknown[] | undefined;
          for (;;) {
            const r = await req(
              'POST',
              '/_search',
              {
                size: 12,
                pit: { id: pit, keep_alive: '1m' },
                sort: [{ _shard_doc: 'asc' }],
                ...(after ? { search_after: after } : {}),
              },
              { seq_no_primary_term: true },
            );
            if (!r.body.hits.hits.length) break;
            out.push(r.body.hits.hits);
            after = r.body.hits.hits.at(-1).sort;
          }
          t.match(await req('DELETE', '/_search/point_in_time', { pit_id: [pit] }), { statusCode: 200 });
          return out;
        },
      ],
    ];
    for (const [name, read] of pages) {
      const got = await read();
      t.same(
        got.map((p) => p.length),
        [12, 12, 6],
        `${name}: pages`,
      );
      for (const h of got.flat())
        t.match(
          h,
          { _index: '.sm_jsc_jobs', _id: String, _seq_no: Number, _primary_term: 1, _source: Object },
          `${name} ${h._id}`,
        );
    }
  },
);
