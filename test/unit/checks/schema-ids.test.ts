import t from 'tap';
import { readFileSync } from 'node:fs';
import { CHECK_IDS } from '../../../src/model/index.ts';

const schema = JSON.parse(readFileSync(new URL('../../../schema/report.json', import.meta.url), 'utf8')) as {
  $defs: Record<string, { enum?: unknown[] }>;
};

/** Every enum in the schema, wherever it is nested. */
function enums(node: unknown, out: unknown[][] = []): unknown[][] {
  if (Array.isArray(node)) for (const item of node) enums(item, out);
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === 'enum' && Array.isArray(value)) out.push(value);
      else enums(value, out);
    }
  return out;
}

t.test("the schema's check ids are the check list, in its order (npm run schema writes them)", async (t) => {
  t.strictSame(schema.$defs['check-id']?.enum, [...CHECK_IDS]);
});

t.test('the schema lists the check ids once: every other place refers to $defs/check-id', async (t) => {
  const naming = enums(schema).filter((values) => values.some((v) => (CHECK_IDS as readonly unknown[]).includes(v)));
  t.equal(naming.length, 1);
});
