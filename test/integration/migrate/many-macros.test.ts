/**
 * More than 10,000 macros: the engine counts hits exactly only up to 10,000 (`relation: gte` beyond), so
 * a reader that trusts `hits.total` alone would stop after the first page. Against the lab's real API.
 */
import t from 'tap';
import { startLab, fakeIndices } from '../../../lab/test/helpers/api-fixture.ts';
import { clusterMacros, DEFAULT_MACROS_INDEX } from '../../../src/migrate/providers.ts';
import { explainWith } from '../../../src/migrate/explain.ts';
import { staticMappings } from '../../../src/migrate/providers.ts';
import { requestAs } from '../../helpers/request-as.ts';
import { labApi } from '../../helpers/lab-api.ts';

const COUNT = 10_250;
const macros = Object.fromEntries(
  Array.from({ length: COUNT }, (_, i) => [`m${i}`, { name: `m${i}`, args: [], definition: `host=h${i}` }]),
);
const lab = await startLab(t, [...fakeIndices(), { name: DEFAULT_MACROS_INDEX, docs: macros }]);
const api = labApi(t, lab);

t.test('the lab caps hits.total at 10,000 with relation gte, as the engine does by default', async (t) => {
  const res = await requestAs<any>(api, {
    method: 'POST',
    path: `/${DEFAULT_MACROS_INDEX}/_search`,
    body: { size: 1 },
  });
  t.same(res.body.hits.total, { value: 10_000, relation: 'gte' });
});

t.test(`every one of ${COUNT} macros is read, and a macro past the first 10,000 expands`, async (t) => {
  const defs = await clusterMacros(api).macros();
  t.equal(defs.length, COUNT);
  t.equal(new Set(defs.map((d) => d.name)).size, COUNT, 'no macro twice');
  const last = `m${COUNT - 1}`;
  t.ok(
    defs.some((d) => d.name === last),
    `${last} is read`,
  );
  const { explanation } = await explainWith(`source logs | search \`${last}\``, {
    macros: clusterMacros(api),
    mappings: staticMappings({ logs: { mappings: { properties: { host: { type: 'keyword' } } } } }),
  });
  t.same(explanation.errors, [], `${last} is known to explain`);
});
