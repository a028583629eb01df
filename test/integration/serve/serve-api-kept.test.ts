/**
 * serve keeps its REST connections: over steady cycles it opens no new TCP (and so no new TLS) connection to the
 * clusters' APIs. Counted where they are accepted, by the lab's API listeners, which keep idle connections open as
 * the engine's HTTP layer does.
 */
import t from 'tap';
import { labStatus, startLab, type Lab } from '../../../lab/src/index.ts';
import { cycleLines, startServe, waitCycle } from '../../helpers/serve.ts';

let lab: Lab;
t.before(async () => {
  lab = await startLab({ scenario: 'healthy' });
});
t.teardown(() => lab?.stop());

const accepted = async (): Promise<number> =>
  ((await labStatus(lab.dir))?.clusters ?? []).reduce((n, c) => n + c.api_connections, 0);

t.test('five steady cycles open no new API connection', async (t) => {
  // cycles further apart than the 5 s a Node server keeps an idle connection: a lab that closed them would show
  const s = await startServe(['-i', lab.inventoryPath, '--interval', '6', '--timeout', '20']);
  t.teardown(() => void s.proc.kill('SIGKILL'));
  const all = lab.nodes.length;
  const first = await waitCycle(s, (x) => !x.full && x.unchanged === all);
  const before = await accepted();
  // one cluster: its batch of reads opens the kept connections, at most 10
  t.ok(before > 0 && before <= 10, `${before} API connections accepted by the end of cycle ${first.n}`);
  const last = await waitCycle(s, () => true, first.n + 5);
  const after = await accepted();
  t.equal(after, before, `no new API connection in cycles ${first.n + 1}–${last.n}`);
  t.ok(cycleLines(s).filter((x) => x.n > first.n && x.n <= last.n).length >= 5, 'five cycles were run');
  s.proc.kill('SIGTERM');
  t.equal((await s.proc).exitCode, 0);
});
