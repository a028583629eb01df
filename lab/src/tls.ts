import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { X509Certificate, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { execa } from 'execa';

export interface LabTls {
  /** Path of the CA certificate (what the inventory's api_ca_file points at). */
  caFile: string;
  caCert: string;
  /** Server private key and certificate (PEM). */
  key: string;
  cert: string;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** True when the certificate names localhost and every ip as subjectAltName. */
export function coversIps(certPem: string, ips: string[]): boolean {
  const san = new X509Certificate(certPem).subjectAltName ?? '';
  const names = new Set(san.split(/,\s*/));
  return names.has('DNS:localhost') && ips.every((ip) => names.has(`IP Address:${ip}`));
}

async function openssl(args: string[], cwd: string): Promise<void> {
  await execa('openssl', args, { cwd, stdin: 'ignore' });
}

/**
 * A lab CA and one server certificate for every node address (and localhost)
 * under `dir`. Existing files are reused when they already cover the ips; a
 * new server certificate is signed by the existing CA, so trust stays valid.
 */
export async function generateLabTls(dir: string, ips: string[]): Promise<LabTls> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const f = (n: string) => join(dir, n);
  if (!existsSync(f('ca.key')) || !existsSync(f('ca.crt'))) {
    await openssl(
      [
        'req',
        '-x509',
        ...EC,
        '-keyout',
        'ca.key',
        '-out',
        'ca.crt',
        '-days',
        '3650',
        '-subj',
        '/CN=smdoctor lab CA',
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      ],
      dir,
    );
    await rm(f('server.crt'), { force: true });
  }
  await chmod(f('ca.key'), 0o600);
  const have =
    existsSync(f('server.crt')) && existsSync(f('server.key')) ? await readFile(f('server.crt'), 'utf8') : null;
  if (!have || !coversIps(have, ips)) {
    const san = ['DNS:localhost', 'IP:127.0.0.1', ...ips.map((ip) => `IP:${ip}`)];
    await writeFile(
      f('server.ext'),
      [
        `subjectAltName=${[...new Set(san)].join(',')}`,
        'basicConstraints=CA:FALSE',
        'keyUsage=critical,digitalSignature,keyEncipherment',
        'extendedKeyUsage=serverAuth',
        '',
      ].join('\n'),
    );
    await openssl(['req', ...EC, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
    await openssl(
      [
        'x509',
        '-req',
        '-in',
        'server.csr',
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-set_serial',
        `0x${randomBytes(8).toString('hex')}`,
        '-days',
        '825',
        '-sha256',
        '-extfile',
        'server.ext',
        '-out',
        'server.crt',
      ],
      dir,
    );
    await rm(f('server.csr'), { force: true });
    await rm(f('server.ext'), { force: true });
  }
  await chmod(f('server.key'), 0o600);
  const [caCert, key, cert] = await Promise.all(
    ['ca.crt', 'server.key', 'server.crt'].map((n) => readFile(f(n), 'utf8')),
  );
  return { caFile: f('ca.crt'), caCert, key, cert };
}
