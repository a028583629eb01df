/** `file_modified: REL`: a file's modification time under search_home, epoch seconds (fleet pack). */
import { shQuote as shq } from '../../transport/command.ts';
import { relPath, relPathShape } from '../load/forms.ts';
import { unsafeRelPath } from '../read/sources.ts';
import { err, hostRead, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const fileModified: SourceKind<'file_modified'> = {
  doc: {
    write: '`file_modified: REL`',
    value: 'the modification time of a file under `search_home`, epoch seconds; absent when the file is',
  },
  shape: relPathShape('modification time of a file under search_home'),
  load: (r, at, v) => {
    const path = relPath(r, at, v, 'file_modified');
    return path === undefined ? undefined : { kind: 'file_modified', path };
  },
  host: {
    key: (s) => s.path,
    // the time as `stat` prints it (the link itself, never what it points at)
    lines: (paths, _, tag) =>
      paths
        .filter((p) => !unsafeRelPath(p))
        .map(
          (p) =>
            `if t=$(stat -c %Y -- "$H"/${shq(p)} 2>/dev/null); then printf '%s FILE ${tag(paths.indexOf(p))}\\n%s\\n%s END 0\\n' "$B" "$t" "$B"; ` +
            `else printf '%s ABSENT ${tag(paths.indexOf(p))}\\n' "$B"; fi`,
        ),
  },
  read: (s, c) => {
    const r = hostRead(c, 'file_modified', s.path);
    if (!r) return err(`the time of ${s.path} was not read`);
    if (r.error) return err(r.error);
    const t = r.text?.trim();
    return ok(t ? Number(t) : undefined);
  },
};
