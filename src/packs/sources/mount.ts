/** `mount: /ABS`: the file system that holds the path, from the mount table. */
import { shQuote as shq } from '../../transport/command.ts';
import { absPath, absPathShape } from '../host/abs-path.ts';
import { mountOf } from '../host/mount.ts';
import { err, hostRead, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const mount: SourceKind<'mount'> = {
  doc: {
    write: '`mount: /ABS/PATH`',
    value:
      'the file system that holds the path (the longest mount point above it, the path as written): `{source, type, options}` (`options` a list)',
  },
  shape: absPathShape('an absolute path: the file system that holds it'),
  object: true,
  load: (r, at, x) => {
    const p = absPath(r, at, x, 'mount');
    return p === undefined ? undefined : { kind: 'mount', path: p };
  },
  host: { key: () => 'all', lines: (_, __, tag) => [`small ${shq(tag('all'))} "$P"/self/mounts`] },
  read: (s, c) => {
    const r = hostRead(c, 'mount', 'all');
    if (!r) return err('the mount table was not read (the batched command did not finish)');
    if (r.error) return err(r.error);
    if (r.text === null) return err('the host has no mount table (/proc/self/mounts)');
    return ok(mountOf(r.text, s.path));
  },
};
