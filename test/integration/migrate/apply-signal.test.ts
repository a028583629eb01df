/** migrate --apply and a signal (Ctrl-C, a dropped SSH session): it stops between rewrites, says what was rewritten, releases the lease. */
import t from 'tap';
import { fleetScenario, startLab } from '../../../lab/src/index.ts';
import { runCli } from '../../helpers/cli.ts';
import { openCluster } from '../../../src/migrate/cluster.ts';
import { openClusterApi } from '../../../src/reach/deps.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';

t.setTimeout(300_000);

t.test('a signal after the first rewrite: the rest are not rewritten and say so, exit 3, lease released', async (t) => {
  const lab = await startLab({ scenario: fleetScenario(1, 2) });
  t.teardown(() => lab.stop());
  const { api } = await openCluster({ inventory: lab.inventoryPath, timeout: 60 }, process.cwd(), {}, () => undefined);
  t.teardown(() => api.close());
  let signalled = false;
  // the first document written back: the operator's session drops right after it
  const interrupting = (inner: ClusterApi): ClusterApi => ({
    ...inner,
    url: inner.url,
    close: () => inner.close(),
    async request(req) {
      const r = await inner.request(req);
      if (!signalled && req.method === 'PUT' && req.path.startsWith('/.sm_jsc_jobs/_doc/')) {
        signalled = true;
        // until this process has seen it (the CLI's listener, added before ours, runs first), however slow the machine
        const seen = new Promise((done) => process.once('SIGUSR2', done));
        process.kill(process.pid, 'SIGUSR2');
        await seen;
      }
      return r as never;
    },
  });
  const r = await runCli(
    ['migrate', 'jobs', '-i', lab.inventoryPath, '--apply', '--yes', '--format', 'json', '--backup-dir', t.testdir()],
    { tty: false, deps: { signals: ['SIGUSR2'], api: (cfg, o) => interrupting(openClusterApi(cfg, o)) } },
  );
  t.ok(signalled);
  t.equal(r.code, 3, r.err);
  t.match(r.err, /SIGUSR2: stopping after the current rewrite/);
  t.match(r.err, /interrupted: stopped between rewrites/);
  const entries = JSON.parse(r.out) as Array<{ doc_id: string; apply?: { status: string; message?: string } }>;
  const applied = new Set(entries.filter((e) => e.apply?.status === 'applied').map((e) => e.doc_id));
  t.equal(applied.size, 1, 'one document was rewritten before the signal');
  const stopped = entries.filter(
    (e) => e.apply?.status === 'skipped' && /not rewritten: interrupted/.test(e.apply.message ?? ''),
  );
  t.ok(stopped.length >= 1, 'the others say they were not rewritten');
  t.equal((await api.request({ method: 'GET', path: '/.smdoctor-lease/_doc/fix' })).statusCode, 404, 'lease released');
  const again = await runCli(['migrate', 'jobs', '-i', lab.inventoryPath, '--format', 'json'], { tty: false });
  t.equal(again.code, 1, 'what was not rewritten is still to do');
});
