import t from 'tap';
import { statSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { generateLabTls, coversIps } from '../../../src/tls.ts';

t.test('a CA and a server certificate covering every ip, keys 0600, reused when covered', async (t) => {
  const dir = t.testdir();
  const ips = ['127.31.7.1', '127.31.7.2'];
  const a = await generateLabTls(dir, ips);
  const cert = new X509Certificate(a.cert);
  const ca = new X509Certificate(a.caCert);
  t.ok(cert.verify(ca.publicKey), 'signed by the lab CA');
  t.ok(ca.ca, 'the CA is a CA');
  t.ok(coversIps(a.cert, ips));
  t.notOk(coversIps(a.cert, ['127.31.7.3']));
  t.equal(cert.checkIP('127.31.7.2'), '127.31.7.2');
  t.equal(cert.checkHost('localhost'), 'localhost');
  for (const k of ['ca.key', 'server.key']) t.equal(statSync(`${dir}/${k}`).mode & 0o777, 0o600, k);

  const again = await generateLabTls(dir, ips.slice(0, 1));
  t.equal(again.cert, a.cert, 'reused when already covered');

  const wider = await generateLabTls(dir, [...ips, '127.31.7.3']);
  t.not(wider.cert, a.cert, 'reissued for a new ip');
  t.equal(wider.caCert, a.caCert, 'by the same CA');
  t.ok(coversIps(wider.cert, ['127.31.7.3']));
});
