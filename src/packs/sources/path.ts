/** `path: /ABS` (or `{path: /ABS, follow: true}`): a path's metadata on the node, never its content. */
import * as v from 'valibot';
import { absPath, absPathShape } from '../host/abs-path.ts';
import { parseStat, statLines } from '../host/path-stat.ts';
import { err, hostRead, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

const key = (s: { path: string; follow?: true }) => `${s.follow ? 'F' : 'L'}:${s.path}`;

export const path: SourceKind<'path'> = {
  doc: {
    write: '`path: /ABS/PATH` or `path: {path: /ABS/PATH, follow: true}`',
    value:
      'metadata only, never content: `{exists, type, mode, owner, group, size, modified}` (`type` file, directory, symlink or other; `mode` an octal string `"0640"`; `modified` epoch seconds); the link itself unless `follow: true`',
  },
  shape: v.union([
    absPathShape('an absolute path: its metadata'),
    v.strictObject({ path: absPathShape('an absolute path'), follow: v.optional(v.literal(true)) }),
  ]),
  object: true,
  load: (r, at, x) => {
    if (typeof x === 'string') {
      const p = absPath(r, at, x, 'path');
      return p === undefined ? undefined : { kind: 'path', path: p };
    }
    const o = r.map(at, x, 'path', ['path', 'follow'], ['path']);
    if (!o) return undefined;
    const p = absPath(r, [...at, 'path'], o.path, 'path');
    const follow = 'follow' in o ? r.isTrue([...at, 'follow'], o.follow, 'follow') : undefined;
    if (p === undefined || ('follow' in o && follow === undefined)) return undefined;
    return follow ? { kind: 'path', path: p, follow } : { kind: 'path', path: p };
  },
  host: {
    key,
    // one stat for the links themselves, one `stat -L` for the followed: never a program per path
    lines: (keys, _, tag) =>
      statLines(
        keys.filter((k) => k.startsWith('L:')).map((k) => k.slice(2)),
        keys.filter((k) => k.startsWith('F:')).map((k) => k.slice(2)),
        (f) => tag(f ? 'follow' : 'link'),
      ),
  },
  read: (s, c) => {
    const r = hostRead(c, 'path', s.follow ? 'follow' : 'link');
    if (!r) return err(`path ${s.path} was not read (the batched command did not finish)`);
    if (r.error) return err(r.error);
    if (r.text === null) return err('the host has no stat program');
    return ok(parseStat(r.text).get(s.path) ?? { exists: false });
  },
};
