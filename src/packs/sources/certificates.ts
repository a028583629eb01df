/** `certificates`: every certificate the security plugin's `*.pemcert_filepath` settings name (fleet pack). */
import { certificates as each } from '../read/sources-fleet.ts';
import { certificate } from './certificate.ts';
import type { SourceKind } from './kind.ts';

export const certificates: SourceKind<'certificates'> = {
  doc: {
    write: '`certificates`',
    value: 'every certificate the security settings name: a list of `certificate` objects, each with its `setting`',
  },
  object: true,
  needs: (_, n) => void (n.certs = true),
  read: (_, c) => each((setting) => certificate.read({ kind: 'certificate', setting }, c)),
};
