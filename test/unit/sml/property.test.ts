import t from 'tap';
import { explain, type Explanation, type MacroNode } from '../../../src/sml/index.ts';
import { corpusMacros, corpusMappings, genQuery, pick, prng, type Rng } from '../../../lab/src/corpus.ts';

const ctx = { mappings: corpusMappings(), macros: corpusMacros() };

t.test('property: the replacement re-parses without new errors and is a fixed point', async (t) => {
  const r = prng(20240501);
  let changed = 0;
  for (let i = 0; i < 1500; i++) {
    const q = genQuery(r);
    const e = explain(q, ctx);
    const again = explain(e.replacement, ctx);
    if (e.replacement !== q) changed++;
    if (again.errors.length > e.errors.length || again.replacement !== e.replacement) {
      t.fail(`not idempotent: ${JSON.stringify(q)}`, { e, again });
      return;
    }
    // every added operator is now seen as applied
    const added = e.search_fields.filter((f) => f.status === 'text_op_added').length;
    const before = e.search_fields.filter((f) => f.status === 'has_text_op').length;
    t.equal(again.search_fields.filter((f) => f.status === 'has_text_op').length, before + added, q);
  }
  t.ok(changed > 100, `the generator exercises rewrites (${changed})`);
});

const ALPHABET = [
  'a',
  'host',
  '=',
  '!=',
  '<',
  '>',
  ' ',
  '\n',
  '"',
  '\\',
  '`',
  '(',
  ')',
  '[',
  ']',
  '|',
  ',',
  'text ',
  'NOT ',
  ' OR ',
  'IN',
  'source ',
  'search ',
  '$',
  '*',
  'é',
  '\u{1F600}',
  '`web_hosts`',
  '`by_user(',
  '`suspicious(x)`',
];

function mutate(r: Rng, q: string): string {
  const n = 1 + Math.floor(r() * 4);
  let s = q;
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (s.length + 1));
    const op = r();
    if (op < 0.4) s = s.slice(0, at) + pick(r, ALPHABET) + s.slice(at);
    else if (op < 0.7) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 5));
    else s = s.slice(0, at) + pick(r, ALPHABET) + s.slice(at + 1);
  }
  return s;
}

function randomText(r: Rng): string {
  let s = '';
  const n = Math.floor(r() * 30);
  for (let i = 0; i < n; i++) s += pick(r, ALPHABET);
  return s;
}

function checkBounds(q: string, e: Explanation): string | undefined {
  if (e.original !== q) return 'original differs';
  for (const x of e.errors) if (!(x.position >= 0 && x.position <= q.length)) return `error ${x.code} at ${x.position}`;
  for (const f of e.search_fields) {
    if (e.expansion.slice(f.position, f.position + f.name.length) !== f.name) return `field ${f.name} at ${f.position}`;
  }
  for (const n of e.macros)
    if (q.slice(n.expansion_position, n.expansion_position + n.original.length) !== n.original)
      return `macro ${n.original}`;
  const walk = (n: MacroNode): string | undefined => {
    for (const c of n.macros) {
      if (c.expansion_position < 0) return `nested ${c.original}`;
      const bad = walk(c);
      if (bad) return bad;
    }
    for (const f of n.search_fields)
      if (e.expansion.slice(f.position, f.position + f.name.length) !== f.name) return `macro field ${f.name}`;
    return undefined;
  };
  for (const n of e.macros) {
    const bad = walk(n);
    if (bad) return bad;
  }
  return undefined;
}

t.test('fuzz: 5000 random and mutated queries never throw, positions stay in bounds', async (t) => {
  const r = prng(7);
  let failures = 0;
  for (let i = 0; i < 5000 && failures < 5; i++) {
    const q = i % 3 === 0 ? randomText(r) : mutate(r, genQuery(r));
    let e: Explanation;
    try {
      e = explain(q, ctx);
    } catch (err) {
      failures++;
      t.fail(`threw on ${JSON.stringify(q)}: ${String(err)}`);
      continue;
    }
    const bad = checkBounds(q, e);
    if (bad) {
      failures++;
      t.fail(`${bad} in ${JSON.stringify(q)}`);
    }
  }
  t.equal(failures, 0);
});
