/** Absolute paths a pack names on the host (`path:`, `mount:`, `file:`), and the file names `file:` never reads. */
import * as v from 'valibot';
import type { Reader } from '../load/load-shape.ts';
import type { Path } from '../load/load-yaml.ts';

// absolute, no `..` segment, no backslash, no control character (a newline would split the batched command's lines)
// eslint-disable-next-line no-control-regex -- controls are what is refused
export const ABS_PATH_RE = /^(?!.*\/\.\.(\/|$))(?!.*\\)\/[^\u0000-\u001f\u007f-\u009f\u2028\u2029]{0,4095}$/;
const ABS_FORM = 'an absolute path (/etc/…) without .., backslashes or control characters';

export const absPathShape = (what: string) => v.pipe(v.string(), v.regex(ABS_PATH_RE), v.description(what));

export const absPath = (r: Reader, p: Path, x: unknown, what: string): string | undefined => {
  const s = r.str(p, x, what);
  if (s === undefined) return undefined;
  return ABS_PATH_RE.test(s) ? s : r.bad(p, `${what} ${JSON.stringify(s)} is not ${ABS_FORM}`);
};

/** Why a file's content must not be read (it looks like a secret), or undefined. Metadata (`path:`) may still be read. */
export function secretLooking(path: string): string | undefined {
  const parts = path.toLowerCase().split('/');
  const name = parts.at(-1) ?? '';
  if (/^g?shadow-?$/.test(name)) return 'it is a password database';
  if (/\.(key|p12|pfx|jks|keystore|bcfks|kdb|gpg|asc)$|[-_.]key(\.pem)?$|^id_(rsa|dsa|ecdsa|ed25519)/.test(name))
    return 'it looks like a key or a keystore';
  if (/password|passwd-|htpasswd|secret|token|credential/.test(name)) return 'its name looks like a secret';
  if (parts.slice(0, -1).includes('private')) return "it is in a folder named 'private'";
  return undefined;
}
