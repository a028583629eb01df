/** certificate: X.509 through Node's crypto; `demo` from the engine's published demo certificates (test/fixtures/packs/SOURCE.md). */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { readCertificate } from '../../../src/packs/index.ts';

const pem = (f: string) => readFileSync(new URL(`../../fixtures/packs/${f}`, import.meta.url), 'utf8');

t.test('the demo node certificate', async (t) => {
  const c = readCertificate(pem('esnode.pem'), new Date('2034-02-07T17:03:25Z'));
  t.match(c, { demo: true, self_signed: false, days_left: 10, not_after: '2034-02-17T17:03:25.000Z' });
  t.match(c.subject, /CN=node-0\.example\.com/);
  t.match(c.issuer, /CN=Example Com Inc\. Root CA/);
  t.equal(readCertificate(pem('esnode.pem'), new Date('2034-03-01T00:00:00Z')).days_left < 0, true, 'expired');
});

t.test('the demo root is self-signed', async (t) => {
  t.match(readCertificate(pem('root-ca.pem'), new Date()), { demo: true, self_signed: true });
});

t.test('not a certificate', async (t) => {
  t.throws(() => readCertificate('hello', new Date()), /no PEM certificate/);
  t.throws(() => readCertificate('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', new Date()));
});
