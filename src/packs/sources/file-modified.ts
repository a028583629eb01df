/** `file_modified: REL`: a file's modification time under search_home, epoch seconds (fleet pack). */
import { shQuote as shq } from '../../transport/command.ts';
import { relPath, relPathShape } from '../load/forms.ts';
import { unsafeRelPath } from '../read/sources.ts';
import { err, hostRead, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const fileModified: SourceKind<'file_modified'> = {
  doc: {
    write: '`file_modified: REL`',
    value:
      'the modification time of a file under `search_home` (`config/…`: in its config folder), epoch seconds (of a symlink itself); absent when the file is; a path whose folder (or link) leads out of its folder is not read, as for `file`',
  },
  shape: relPathShape('modification time of a file under search_home'),
  load: (r, at, v) => {
    const path = relPath(r, at, v, 'file_modified');
    return path === undefined ? undefined : { kind: 'file_modified', path };
  },
  host: {
    key: (s) => s.path,
    under: true,
    // the folder resolved as the `file` source resolves it (gather-host.ts `under`): a symlink out of the home is refused;
    // the time as `stat` prints it (the link itself, never what it points at)
    lines: (paths, _, tag) =>
      paths
        .filter((p) => !unsafeRelPath(p))
        .map((p) => {
          const [root, at] = p.startsWith('config/')
            ? ['"$CR"', `"$C"/${shq(p.slice(7))}`]
            : ['"$HR"', `"$H"/${shq(p)}`];
          const t = tag(paths.indexOf(p));
          return (
            `under ${root} ${at}; if [ $? = 2 ]; then printf '%s OUT ${t}\\n' "$B"; ` +
            `elif t=$(stat -c %Y -- ${at} 2>/dev/null); then printf '%s FILE ${t}\\n%s\\n%s END 0\\n' "$B" "$t" "$B"; ` +
            `else printf '%s ABSENT ${t}\\n' "$B"; fi`
          );
        }),
  },
  read: (s, c) => {
    const r = hostRead(c, 'file_modified', s.path);
    if (!r) return err(`the time of ${s.path} was not read`);
    if (r.error) return err(r.error);
    const t = r.text?.trim();
    return ok(t ? Number(t) : undefined);
  },
};
