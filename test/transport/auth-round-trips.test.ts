import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { allocateLoopback } from '../../lab/src/net.ts';
import { generateKey, startSshd } from '../../lab/src/sshd.ts';
import { connectTransport } from '../../src/transport/index.ts';
import type { HostConfig } from '../../src/inventory/types.ts';

// Every authentication request is a round trip to the host: 50 ms each on a distant fleet.
t.test('a key file authenticates without first asking for the "none" method', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'smdoctor-auth-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const client = await generateKey(join(dir, 'id_ed25519'));
  const [address] = await allocateLoopback(1, [2222]);
  // DEBUG1 logs each userauth request with its method
  const sshd = await startSshd({
    dir: join(dir, 'sshd'),
    address: address!,
    port: 2222,
    authorizedKeys: [client.publicKey],
    logLevel: 'DEBUG1',
  });
  t.teardown(() => sshd.stop());
  const knownHostsFile = join(dir, 'known_hosts');
  await writeFile(knownHostsFile, `${sshd.knownHostsLine}\n`);
  const cfg: HostConfig = {
    name: 'node1',
    connection: 'ssh',
    address: address!,
    port: 2222,
    user: userInfo().username,
    privateKeyFile: client.privatePath,
    become: false,
    knownHostsFile,
    hostKeyChecking: 'strict',
    engine: 'opensearch',
    searchHome: '/app/opensearch',
    webHome: '/app/opensearch-dashboards',
    engineUser: 'opensearch',
    restartCommand: 'systemctl restart {service}',
    apiUrl: `https://${address}:9200`,
    apiPasswordEnv: 'SMDOCTOR_API_PASSWORD',
    apiInsecure: false,
    inDashboardsGroup: false,
  };
  const tr = await connectTransport(cfg, { timeout: 10, env: {} });
  // (sshd at DEBUG1 also writes its debug lines to the session's stderr)
  t.match(await tr.exec('echo ok'), { code: 0, stdout: 'ok\n' });
  await tr.close();
  const log = await readFile(join(dir, 'sshd', 'sshd.log'), 'utf8');
  const methods = [...log.matchAll(/userauth-request for user \S+ service ssh-connection method (\S+)/g)].map(
    (m) => m[1],
  );
  t.same(
    methods,
    ['publickey', 'publickey'],
    'the key offered (asked whether acceptable), then signed: no "none" first',
  );
});
