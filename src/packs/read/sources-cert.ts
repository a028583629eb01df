/** `certificate:` — the first certificate of a PEM file an engine setting names, read with Node's X.509 parser. */
import { X509Certificate } from 'node:crypto';

/**
 * SHA-256 fingerprints of the engine's published demo certificates (esnode.pem, kirk.pem, root-ca.pem) from
 * opensearch-project/security, src/main/java/org/opensearch/security/tools/democonfig/Certificates.java at
 * e7eb1907f33781e37d76a231e54ee42221821f7a (copies in test/fixtures/packs/).
 */
export const DEMO_FINGERPRINTS: ReadonlySet<string> = new Set([
  '85:71:CE:60:51:97:3C:F8:93:23:32:58:00:1E:AF:81:A0:3C:23:C9:B7:89:4B:0F:F3:32:3F:29:3E:1E:B0:26',
  'C7:95:3A:3B:DF:5D:41:D9:F8:F2:7F:D3:D7:A6:86:EA:63:84:49:83:5D:80:5F:12:88:2B:7D:A8:B7:C6:B5:41',
  'A8:24:90:41:96:7B:A9:F0:E0:3E:40:6F:53:6D:6A:C3:D5:16:B3:7C:20:4D:62:95:22:2A:80:AE:FF:A0:16:8F',
  // the generation before (esnode.pem, root-ca.pem at 17748b9e7edb143ff108d45483e2333f70ab15df, valid to 2033):
  // copies in lab/assets/opensearch-demo/, still found on nodes installed from older releases
  '72:81:62:58:ED:53:3B:1B:CF:35:29:1F:DA:92:55:54:DA:BA:B2:38:2B:B2:1A:C2:F5:7F:7F:B0:E6:D1:DE:96',
  'AD:4E:37:EA:07:E6:A2:89:9C:04:BB:C9:E4:8A:AB:A1:F3:C6:E6:C3:97:D3:F2:DA:37:F0:82:A9:B6:01:4D:A2',
]);

export interface CertificateValue {
  subject: string;
  issuer: string;
  /** ISO 8601. */
  not_after: string;
  /** Whole days from now to not_after; negative once expired. */
  days_left: number;
  self_signed: boolean;
  demo: boolean;
}

const DAY_MS = 86_400_000;
const oneLine = (dn: string) => dn.split('\n').join(', ');

/** The first PEM certificate of the text; throws with the parser's reason when there is none or it is malformed. */
export function readCertificate(pem: string, now: Date): CertificateValue {
  const block = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(pem);
  if (!block) throw new Error('no PEM certificate in it');
  const c = new X509Certificate(block[0]);
  const notAfter = new Date(c.validTo);
  return {
    subject: oneLine(c.subject),
    issuer: oneLine(c.issuer),
    not_after: notAfter.toISOString(),
    days_left: Math.floor((notAfter.getTime() - now.getTime()) / DAY_MS),
    self_signed: c.subject === c.issuer && c.verify(c.publicKey),
    demo: DEMO_FINGERPRINTS.has(c.fingerprint256),
  };
}

/** The setting's path relative to `config/` as the batched command listed it; undefined when it points elsewhere. */
export function configRelative(value: string, searchHome: string): string | undefined {
  const abs = `${searchHome.replace(/\/+$/, '')}/config/`;
  const rel = value.startsWith('/') ? (value.startsWith(abs) ? value.slice(abs.length) : undefined) : value;
  return rel?.replace(/^(\.\/)+/, '');
}
