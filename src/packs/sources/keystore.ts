/** `keystore`: the names of the node's keystore entries (never their values). */
import { err, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const keystore: SourceKind<'keystore'> = {
  doc: { write: '`keystore`', value: "the names of the node's keystore entries (never their values)" },
  needs: (_, n) => void (n.keystore = true),
  read: (_, c) => (c.host!.keystore ? ok([...c.host!.keystore]) : err('the keystore was not listed')),
};
