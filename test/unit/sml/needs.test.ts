import t from 'tap';
import { explainPrepared, MappingIndex, needsWork, prepare, type Explanation } from '../../../src/sml/index.ts';
import { corpusMacros, corpusMappings, genQuery, pick, prng, type Rng } from '../../../lab/src/corpus.ts';

/** What the stored-query scan keeps: errors, a field left to a person, or a rewrite. */
const kept = (e: Explanation) =>
  e.errors.length > 0 || e.search_fields.some((f) => f.status === 'manual_review') || e.replacement !== e.original;

const BITS = [
  '`',
  '"',
  '(',
  ')',
  '[',
  ']',
  '|',
  ' ',
  'text ',
  'source ',
  'search ',
  'NOT ',
  'IN',
  '=',
  '`failed`',
  'é',
];
function mutate(r: Rng, q: string): string {
  let s = q;
  for (let k = 0; k < 1 + Math.floor(r() * 3); k++) {
    const at = Math.floor(r() * (s.length + 1));
    s = r() < 0.5 ? s.slice(0, at) + pick(r, BITS) + s.slice(at) : s.slice(0, at) + s.slice(at + 1);
  }
  return s;
}

t.test('needsWork answers true exactly for the explanations a scan keeps', async (t) => {
  const r = prng(1313);
  const contexts = [
    { index: new MappingIndex([corpusMappings()]), macros: corpusMacros() },
    // no mappings at all: every source matches nothing
    { index: new MappingIndex([]), macros: corpusMacros() },
    // no macro definitions: every call is unknown
    { index: new MappingIndex([corpusMappings()]), macros: [] },
  ];
  const fixed = [
    'source logs-* | search host=a',
    'source logs-* | search text host=a',
    'search host=a',
    'source nothing-* | search host=a',
    'source logs-* | search `by_user(bob)`',
    'source logs-* | search code=1 user=x',
    'source metrics-a | search host=x',
    'source logs-* | stats count by host',
  ];
  let n = 0;
  const seen = { kept: 0, skipped: 0 };
  for (const ctx of contexts) {
    const queries = [...fixed];
    for (let i = 0; i < 3000; i++) queries.push(i % 2 ? genQuery(r) : mutate(r, genQuery(r)));
    for (const q of queries) {
      const p = prepare(q, ctx.macros);
      const want = kept(explainPrepared(p, ctx.index).explanation);
      if (needsWork(p, ctx.index) !== want) {
        t.fail(`needsWork disagrees with the explanation for ${JSON.stringify(q)}`, { want });
        return;
      }
      seen[want ? 'kept' : 'skipped']++;
      n++;
    }
  }
  t.ok(seen.kept > 1000 && seen.skipped > 1000, `both answers exercised (${JSON.stringify(seen)})`);
  t.equal(n, 3 * (fixed.length + 3000));
});
