import t from 'tap';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectTransport } from '../../../src/transport/connect.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';

// Every authentication request is a round trip to the host: 50 ms each on a distant fleet.
t.test('a key file authenticates without first asking for the "none" method', async (t) => {
  const fleet = await startSshdFleet(t, 1, { logLevel: 'DEBUG1' });
  const tr = await connectTransport(fleet.config(0), { timeout: 10, env: {} });
  // (sshd at DEBUG1 also writes its debug lines to the session's stderr)
  t.match(await tr.exec('echo ok'), { code: 0, stdout: 'ok\n' });
  await tr.close();
  const log = await readFile(join(fleet.dir, 'sshd-1', 'sshd.log'), 'utf8');
  const methods = [...log.matchAll(/userauth-request for user \S+ service ssh-connection method (\S+)/g)].map(
    (m) => m[1],
  );
  t.same(
    methods,
    ['publickey', 'publickey'],
    'the key offered (asked whether acceptable), then signed: no "none" first',
  );
});
