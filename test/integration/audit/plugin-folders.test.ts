/** Plugin folder names that could be split or misread: read exactly, and never acted on. */
import t from 'tap';
import { readHost } from '../../../src/audit/gather-host.ts';
import { masterPlugins } from '../../../src/checks/index.ts';
import { cluster, nodeHost, withNode } from '../../helpers/checks/facts.ts';
import { descriptor, plantHost, type HostTree } from '../../helpers/audit/fakes.ts';
import { fakeTransport } from '../../helpers/audit/local-sh.ts';

const TREE: HostTree = {
  engineYml: 'x: 1\n',
  plugins: {
    'analysis-icu': descriptor('analysis-icu'),
    'analysis-icu\nx': descriptor('sm-sigma'),
    '--purge': descriptor('sm-job-scheduler'),
    'mitre\n': descriptor('sm-job-scheduler-actions-mitre'),
    'inc ident': descriptor('sm-job-scheduler-actions-incident'),
  },
};

t.test('plugin folder names: a newline, a trailing newline or a leading - is read exactly and refused', async (t) => {
  const conf = plantHost(t.testdir({}), 'h1', TREE);
  const facts = await readHost(fakeTransport('h1', TREE), conf, 10);
  t.same(
    facts.plugins.map((p) => [p.folder, p.name, p.refused !== undefined]).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    [
      ['--purge', 'sm-job-scheduler', true],
      ['analysis-icu', 'analysis-icu', false],
      ['analysis-icu\nx', 'sm-sigma', true],
      ['inc ident', 'sm-job-scheduler-actions-incident', false],
      ['mitre\n', 'sm-job-scheduler-actions-mitre', true],
    ],
  );
  t.equal(facts.error, undefined);
});

t.test('plugin folder names: fix never removes analysis-icu nor passes --purge; a person is told', async (t) => {
  const conf = plantHost(t.testdir({}), 'h1', TREE);
  const read = await readHost(fakeTransport('h1', TREE), conf, 10);
  const nodes = withNode('m1', { plugins: ['sm-sigma', 'sm-job-scheduler'] });
  const hosts = nodes
    .filter((n) => n.host !== null)
    .map((n) => (n.name === 'm1' ? nodeHost(n, { plugins: read.plugins }) : nodeHost(n)));
  const r = masterPlugins.run(cluster({ nodes, hosts }));
  const removes = r.actions.filter((a) => a.type === 'remove-plugin').map((a) => a.command);
  t.same(removes, [`/app/opensearch/bin/opensearch-plugin remove 'inc ident'`], 'only the safely named folder');
  t.notOk(r.actions.some((a) => /analysis-icu|--purge|mitre/.test(a.command ?? '')));
  for (const f of ['"analysis-icu\\nx"', '"--purge"', '"mitre\\n"']) {
    t.ok(
      r.findings.some(
        (x) =>
          x.kind === 'unverified' && x.message.includes(`plugin folder ${f}`) && /remove it by hand/.test(x.message),
      ),
      f,
    );
  }
  t.equal(r.status, 'fail');
});
