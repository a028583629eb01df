/** serve's --tls-cert and --tls-key: checked before anything starts, so a wrong file is named, never a stack trace. */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { UsageError } from '../base/errors.ts';

export interface TlsFiles {
  cert: string;
  key: string;
}

/** The certificate and key as read, once each is PEM of its kind and the key is the certificate's own. */
export function checkTls(f: TlsFiles, certFile: string, keyFile: string): TlsFiles {
  let cert: X509Certificate;
  let key: KeyObject;
  try {
    cert = new X509Certificate(f.cert);
  } catch {
    throw new UsageError(`--tls-cert ${certFile}: not a PEM certificate`);
  }
  try {
    key = createPrivateKey(f.key);
  } catch {
    throw new UsageError(`--tls-key ${keyFile}: not a PEM private key (an unencrypted one)`);
  }
  // OpenSSL takes a key of another type than the certificate's without a word, and fails each handshake later
  if (!cert.checkPrivateKey(key))
    throw new UsageError(
      `--tls-key ${keyFile} is not the private key of the certificate in --tls-cert ${certFile} (the two files must be a pair)`,
    );
  try {
    createSecureContext({ cert: f.cert, key: f.key });
  } catch (e) {
    throw new UsageError(`--tls-cert ${certFile} and --tls-key ${keyFile}: refused by TLS (${(e as Error).message})`);
  }
  return f;
}
