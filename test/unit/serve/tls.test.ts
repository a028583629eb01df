/** serve --tls-cert/--tls-key that are not a PEM pair: exit 2 naming the flag, before the inventory is read. */
import t from 'tap';
import { generateKeyPairSync } from 'node:crypto';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { checkTls } from '../../../src/serve/tls.ts';

const CERT = new URL('../../fixtures/packs/kirk.pem', import.meta.url).pathname;

t.test('a certificate and key that are not a matching PEM pair are refused, naming the flag', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'serve-tls-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await copyFile(CERT, join(dir, 'cert.pem'));
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await writeFile(join(dir, 'other-key.pem'), other.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(join(dir, 'garbage.pem'), 'not a key\n');
  await writeFile(join(dir, 'inventory.yml'), 'all:\n  hosts:\n    d1:\n      ansible_host: 127.0.0.1\n');
  const serve = (cert: string, key: string) =>
    runCli(['serve', '-i', 'inventory.yml', '--tls-cert', cert, '--tls-key', key], { cwd: dir, env: {} });

  const mismatch = await serve('cert.pem', 'other-key.pem');
  t.equal(mismatch.code, 2, mismatch.err);
  t.match(mismatch.err, /--tls-key other-key\.pem is not the private key of the certificate in --tls-cert cert\.pem/);
  t.notMatch(mismatch.err, /\n\s+at /, 'no stack trace');

  const badKey = await serve('cert.pem', 'garbage.pem');
  t.equal(badKey.code, 2, badKey.err);
  t.match(badKey.err, /--tls-key garbage\.pem: not a PEM private key/);

  const badCert = await serve('other-key.pem', 'other-key.pem');
  t.equal(badCert.code, 2, badCert.err);
  t.match(badCert.err, /--tls-cert other-key\.pem: not a PEM certificate/);
});

t.test('a key of another type than the certificate’s (which TLS would take, and fail every handshake)', async (t) => {
  const { readFile } = await import('node:fs/promises');
  const cert = await readFile(CERT, 'utf8');
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
  t.throws(() => checkTls({ cert, key: String(ec) }, 'c.pem', 'k.pem'), {
    name: 'UsageError',
    message: /--tls-key k\.pem is not the private key of the certificate in --tls-cert c\.pem/,
  });
});
