import t from 'tap';
import { leftoverProcesses } from '../../helpers/processes.ts';
import { execa } from 'execa';
import { chmod, chown, copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TransportError } from '../../../src/base/errors.ts';
import { allocateLoopback } from '../../../lab/src/net.ts';
import { generateKey } from '../../../lab/src/sshd.ts';
import { connectTransport } from '../../../src/transport/connect.ts';
import { type Transport } from '../../../src/transport/types.ts';
import type { HostConfig } from '../../../src/inventory/types.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';

const fleet = await startSshdFleet(t, 2);
const warnings: string[] = [];
// a handshake on a busy machine can outlast a few seconds: AUTH and HOST_KEY must not come out as a CONNECT timeout
// (the address that is not there refuses at once)
const connect = (cfg: HostConfig, env: NodeJS.ProcessEnv = {}) =>
  connectTransport(cfg, { timeout: 10, connectTimeout: 60, env, warn: (m) => warnings.push(m) });
const fp = async (pubFile: string) =>
  (await execa('ssh-keygen', ['-l', '-E', 'sha256', '-f', pubFile])).stdout.split(/\s+/)[1]!;

const tr: Transport = await connect(fleet.config(0));
t.teardown(() => tr.close());

t.test('exec: stdout, stderr, exit code, stdin; one connection for all', async (t) => {
  t.same(await tr.exec('printf out; printf err >&2; exit 7'), { code: 7, stdout: 'out', stderr: 'err' });
  t.same(await tr.exec('true'), { code: 0, stdout: '', stderr: '' });
  t.same(await tr.exec('tr a-z A-Z', { stdin: 'héllo\n' }), { code: 0, stdout: 'HéLLO\n', stderr: '' });
  // Same client port for parallel commands: channels on one connection.
  const conns = await Promise.all(Array.from({ length: 12 }, () => tr.exec('echo $SSH_CONNECTION')));
  t.equal(new Set(conns.map((r) => r.stdout)).size, 1);
});

t.test('timeout: TIMEOUT, process killed, connection still usable', async (t) => {
  const err = await tr.exec('sleep 37.5', { timeout: 1 }).catch((e: unknown) => e);
  t.type(err, TransportError);
  t.match(err, { code: 'TIMEOUT', host: 'node1' });
  t.same(await tr.exec('echo still here'), { code: 0, stdout: 'still here\n', stderr: '' });
  // the host kills it a second after the client gave up (timeout -s KILL 2): time for that on a busy machine
  t.equal(await leftoverProcesses('sleep 37.5', 30_000), '', 'the remote command was killed');
});

t.test('sudo missing: clear REMOTE error for become and for another user', async (t) => {
  const become = await connect(fleet.config(0, { become: true }));
  t.teardown(() => become.close());
  await t.rejects(become.exec('id', { privileged: true }), {
    code: 'REMOTE',
    message: /ansible_become is set but sudo is not installed on 127\./,
  });
  await t.rejects(become.readFile('/etc/hostname', { privileged: true }), {
    code: 'REMOTE',
    message: /sudo is not installed/,
  });
  await t.rejects(tr.exec('id', { asUser: 'opensearch' }), { code: 'REMOTE', message: /sudo is not installed/ });
  // No sudo is needed for unprivileged commands, nor as the login user.
  t.match(await become.exec('id -u'), { code: 0, stdout: '0\n' });
  t.match(await become.exec('id -u', { asUser: fleet.config(0).user, privileged: true }), { code: 0 });
});

t.test('readFile and writeFileAtomic', async (t) => {
  const dir = join(fleet.dir, 'files');
  await mkdir(dir, { recursive: true });
  const target = join(dir, 'opensearch.yml');
  await writeFile(target, 'old: 1\n');
  await chmod(target, 0o640);
  await chown(target, 1234, 4321);

  t.equal(await tr.readFile(join(dir, 'missing')), null);
  t.equal(await tr.readFile(target), 'old: 1\n');
  for (const content of ['new: 2\nüñí: "x"\n', 'no trailing newline', '', 'a\n\n\n']) {
    const before = await readFile(target, 'utf8');
    t.same(await tr.writeFileAtomic(target, content), { backup: before }, JSON.stringify(content));
    t.equal(await readFile(target, 'utf8'), content, 'exact content');
    t.equal(await tr.readFile(target), content, 'reads back');
    const st = await stat(target);
    t.equal(st.mode & 0o777, 0o640, 'mode kept');
    t.match(st, { uid: 1234, gid: 4321 }, 'owner kept');
  }
  const fresh = join(dir, 'fresh.txt');
  t.same(await tr.writeFileAtomic(fresh, 'hello'), { backup: null });
  t.equal(await readFile(fresh, 'utf8'), 'hello');
  t.equal((await stat(fresh)).mode & 0o777, 0o644, 'new file gets the umask default');
  t.same((await readdir(dir)).sort(), ['fresh.txt', 'opensearch.yml'], 'no temp file left');

  await t.rejects(tr.writeFileAtomic(join(dir, 'nodir', 'x'), 'x'), { code: 'REMOTE', message: /cannot write/ });
  await t.rejects(tr.writeFileAtomic(dir, 'x'), { code: 'REMOTE' }, 'a directory is not overwritten');
  t.same((await readdir(dir)).sort(), ['fresh.txt', 'opensearch.yml'], 'failures leave no temp file');
});

t.test('host keys', async (t) => {
  const [s0, s1] = fleet.servers as [(typeof fleet.servers)[0], (typeof fleet.servers)[0]];
  const dir = t.testdir({});

  t.test('a changed key is refused with both fingerprints', async (t) => {
    const kh = join(dir, 'changed');
    // Server 0's address with server 1's key.
    await writeFile(kh, `[${s0.address}]:${s0.port} ${s1.hostKey.publicKey}\n`);
    const [want, got] = await Promise.all([fp(`${s1.hostKey.privatePath}.pub`), fp(`${s0.hostKey.privatePath}.pub`)]);
    for (const policy of ['strict', 'accept-new'] as const) {
      const err = await connect(fleet.config(0, { knownHostsFile: kh, hostKeyChecking: policy })).catch(
        (e: unknown) => e,
      );
      t.match(err, { code: 'HOST_KEY', host: 'node1' }, policy);
      t.match((err as Error).message, want);
      t.match((err as Error).message, got);
    }
    t.equal(
      await readFile(kh, 'utf8'),
      `[${s0.address}]:${s0.port} ${s1.hostKey.publicKey}\n`,
      'known_hosts untouched',
    );
    warnings.length = 0;
    const off = await connect(fleet.config(0, { knownHostsFile: kh, hostKeyChecking: 'off' }));
    await off.close();
    t.match(warnings.join('\n'), want);
    t.match(warnings.join('\n'), got);
  });

  t.test('an unknown key: strict refuses, accept-new records it, then strict works', async (t) => {
    const kh = join(dir, 'sub', 'dir', 'known_hosts');
    await t.rejects(connect(fleet.config(1, { knownHostsFile: kh })), {
      code: 'HOST_KEY',
      host: 'node2',
      message: /not in/,
    });
    const tr2 = await connect(fleet.config(1, { knownHostsFile: kh, hostKeyChecking: 'accept-new' }));
    await tr2.close();
    t.equal((await stat(kh)).mode & 0o777, 0o600);
    const found = await execa('ssh-keygen', ['-F', `[${s1.address}]:${s1.port}`, '-f', kh], { reject: false });
    t.equal(found.exitCode, 0, 'ssh-keygen finds the recorded line');
    const strict = await connect(fleet.config(1, { knownHostsFile: kh }));
    t.match(await strict.exec('echo ok'), { stdout: 'ok\n' });
    await strict.close();
  });

  t.test('a hashed entry is accepted', async (t) => {
    const kh = join(dir, 'hashed');
    await copyFile(fleet.knownHostsFile, kh);
    await execa('ssh-keygen', ['-H', '-f', kh]);
    t.notMatch(await readFile(kh, 'utf8'), s0.address, 'no clear-text address left');
    const h = await connect(fleet.config(0, { knownHostsFile: kh }));
    t.match(await h.exec('echo ok'), { stdout: 'ok\n' });
    await h.close();
  });

  t.test('a revoked key is refused', async (t) => {
    const kh = join(dir, 'revoked');
    await writeFile(kh, `${s0.knownHostsLine}\n@revoked * ${s0.hostKey.publicKey}\n`);
    await t.rejects(connect(fleet.config(0, { knownHostsFile: kh })), { code: 'HOST_KEY', message: /revoked/ });
  });
});

t.test('connection and authentication failures', async (t) => {
  const [nowhere] = await allocateLoopback(1, [2222]);
  const err = await connect(fleet.config(0, { name: 'ghost', address: nowhere! })).catch((e: unknown) => e);
  t.type(err, TransportError);
  t.match(err, { code: 'CONNECT', host: 'ghost', message: `${nowhere}:2222` });

  const dir = t.testdir({});
  const stranger = await generateKey(join(dir, 'stranger'));
  await t.rejects(connect(fleet.config(0, { privateKeyFile: stranger.privatePath })), { code: 'AUTH', host: 'node1' });
  await t.rejects(connect(fleet.config(0, { privateKeyFile: join(dir, 'absent') })), { code: 'INPUT' });

  // The authorised key, encrypted: needs SMDOCTOR_SSH_PASSPHRASE.
  const enc = join(dir, 'enc');
  await copyFile(fleet.clientKey.privatePath, enc);
  await chmod(enc, 0o600);
  await execa('ssh-keygen', ['-q', '-p', '-a', '2', '-N', 's3cret-pass', '-f', enc]);
  const noPass = await connect(fleet.config(0, { privateKeyFile: enc })).catch((e: unknown) => e);
  t.match(noPass, { code: 'AUTH', message: /encrypted.*SMDOCTOR_SSH_PASSPHRASE/ });
  t.notMatch((noPass as Error).message, 's3cret');
  await t.rejects(connect(fleet.config(0, { privateKeyFile: enc }), { SMDOCTOR_SSH_PASSPHRASE: 'wrong' }), {
    code: 'AUTH',
    message: /cannot decrypt/,
  });
  const ok = await connect(fleet.config(0, { privateKeyFile: enc }), { SMDOCTOR_SSH_PASSPHRASE: 's3cret-pass' });
  t.match(await ok.exec('echo in'), { stdout: 'in\n' });
  await ok.close();

  // No key in the inventory: the default key of $HOME.
  const home = t.testdir({ '.ssh': {} });
  await copyFile(fleet.clientKey.privatePath, join(home, '.ssh', 'id_ed25519'));
  const def = await connect(fleet.config(0, { privateKeyFile: undefined }), { HOME: home });
  t.match(await def.exec('echo default'), { stdout: 'default\n' });
  await def.close();
  await t.rejects(connect(fleet.config(0, { privateKeyFile: undefined }), { HOME: t.testdir({}) }), {
    code: 'AUTH',
    message: /no SSH credentials/,
  });
});

t.test('a closed transport refuses commands', async (t) => {
  const c = await connect(fleet.config(1));
  await c.close();
  await t.rejects(c.exec('true'), { code: 'CONNECT' });
});
