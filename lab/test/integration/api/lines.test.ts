/** The lab answers as the release line its scenario names: the banner, _cat/nodes columns, removed parameters. */
import t from 'tap';
import { startLab, call, type Req } from '../../helpers/api-fixture.ts';
import { specErrors } from '../../../../test/helpers/opensearch-spec.ts';

const get = (lab: Awaited<ReturnType<typeof startLab>>, path: string, querystring: Record<string, unknown> = {}) =>
  call(lab, { method: 'GET', path, querystring } as Req);

for (const [version, manager] of [
  ['1.3.19', 'master'],
  ['2.19.1', 'cluster_manager'],
  ['3.1.0', 'cluster_manager'],
] as const) {
  t.test(`OpenSearch ${version}`, async (t) => {
    const lab = await startLab(t, []);
    lab.view.version = version;
    const root = await get(lab, '/');
    t.match(root.body, { version: { number: version, distribution: 'opensearch' } });
    t.strictSame(specErrors('info@200', root.body), []);
    const rows = (await get(lab, '/_cat/nodes', { format: 'json' })).body as Array<Record<string, string>>;
    t.ok(manager in rows[0], `the elected manager's column is ${manager}`);
    t.equal('node.roles' in rows[0], manager === 'cluster_manager', 'node.roles only from 2.0');
    t.equal(rows.filter((r) => r[manager] === '*').length, 1);
    const health = await get(lab, '/_cluster/health', { master_timeout: '30s' });
    if (version.startsWith('3.'))
      t.match(health, {
        statusCode: 400,
        body: { error: { reason: 'request [/_cluster/health] contains unrecognized parameter: [master_timeout]' } },
      });
    else t.equal(health.statusCode, 200);
  });
}
