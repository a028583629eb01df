import t from 'tap';
import { connectTransport } from '../../../src/transport/connect.ts';
import { mapLimit, mapLimitSettled } from '../../../src/transport/limit.ts';
import { allocateLoopback } from '../../../lab/src/net.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';

const fleet = await startSshdFleet(t, 20);

t.test('20 hosts through mapLimit with forks 5', async (t) => {
  let inFlight = 0;
  let max = 0;
  const out = await mapLimit(fleet.servers, 5, async (_s, i) => {
    inFlight++;
    max = Math.max(max, inFlight);
    try {
      const tr = await connectTransport(fleet.config(i), { timeout: 10, connectTimeout: 60 });
      try {
        return (await tr.exec('echo $SSH_CONNECTION')).stdout.split(' ')[2];
      } finally {
        await tr.close();
      }
    } finally {
      inFlight--;
    }
  });
  t.same(
    out,
    fleet.servers.map((s) => s.address),
    'every host answered, in input order',
  );
  t.ok(max <= 5, `max in flight ${max} <= 5`);
  t.equal(max, 5, 'the forks were used');
});

t.test('one unreachable host does not stop the others', async (t) => {
  const [nowhere] = await allocateLoopback(1, [2222]);
  const cfgs = [fleet.config(0), fleet.config(1, { name: 'down', address: nowhere! }), fleet.config(2)];
  // a handshake on a busy machine can outlast the default 10 s: only the address that is not there may fail (at once)
  const out = await mapLimitSettled(cfgs, 2, async (cfg) => {
    const tr = await connectTransport(cfg, { timeout: 10, connectTimeout: 60 });
    await tr.close();
    return cfg.name;
  });
  t.match(out, [
    { ok: true, value: 'node1' },
    { ok: false, error: { code: 'CONNECT', host: 'down' } },
    { ok: true, value: 'node3' },
  ]);
});
