import { readFileSync } from 'node:fs';
import t from 'tap';
import { packDocs } from '../../../scripts/pack-docs.ts';
import { packSchema } from '../../../scripts/pack-schema.ts';
import { SOURCE_KINDS } from '../../../src/packs/sources/registry.ts';
import { MATCHER_KINDS } from '../../../src/packs/matchers/registry.ts';

const file = new URL('../../../schema/pack.json', import.meta.url);

t.test('schema/pack.json is what the registries of sources and matchers make (npm run schema)', async (t) => {
  const text = readFileSync(file, 'utf8');
  t.equal(packSchema(text), text, 'regenerated, it is the same');
});

t.test('the schema names every source and matcher of the registries', async (t) => {
  const s = JSON.parse(readFileSync(file, 'utf8')) as {
    $defs: { source: { anyOf: Array<{ enum?: string[]; required?: string[] }> }; matchers: { properties: object } };
  };
  const named = s.$defs.source.anyOf.flatMap((x) => x.enum ?? x.required ?? []);
  for (const k of SOURCE_KINDS) t.ok(named.includes(k), `source ${k}`);
  t.same(Object.keys(s.$defs.matchers.properties).sort(), [...MATCHER_KINDS].sort(), 'matchers');
});

t.test("docs/packs.md's tables of sources and matchers are the registries' lines (npm run schema)", async (t) => {
  const text = readFileSync(new URL('../../../docs/packs.md', import.meta.url), 'utf8');
  t.equal(packDocs(text), text, 'regenerated, they are the same');
  for (const k of [...SOURCE_KINDS, ...MATCHER_KINDS]) t.match(text, `\`${k}`, `${k} is in docs/packs.md`);
});
