/** `file: {path: REL, match: REGEX}`: the regex's first capture in a text file under search_home or web_home. */
import * as v from 'valibot';
import { boundedExec } from '../../base/regex-cost.ts';
import { redactConfigText } from '../../text/index.ts';
import { regex, regexShape, relPath, relPathShape } from '../load/forms.ts';
import { fileKey, fileNeed, unsafeRelPath } from '../read/sources.ts';
import { absPath, absPathShape, secretLooking } from '../host/abs-path.ts';
import { err, ok, text } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

/** Whether the lines a match spans hold a secret-named setting's value (its block value's lines too). */
function secretLines(text: string, start: number, end: number): boolean {
  const lines = text.split('\n');
  const redacted = redactConfigText(text).split('\n');
  const from = text.slice(0, start).split('\n').length - 1;
  const to = text.slice(0, Math.max(start, end)).split('\n').length - 1;
  for (let i = from; i <= to; i++) if (lines[i] !== redacted[i]) return true;
  return false;
}

export const file: SourceKind<'file'> = {
  doc: {
    write: '`file: {path: REL or /ABS, match: REGEX}`',
    value:
      "a text file under the node's `search_home` (`config/…`: in its config folder, wherever the node keeps it, see the README's \"Install layouts\"; `web:REL`: under `web_home`), or an absolute path under the config folder, `/etc` or `/usr/lib/systemd` (a symlink leading elsewhere is not read): the regex's first capture group of the first match (the whole match without a group); absent when the file or the match is missing. A name that looks like a secret (keys, keystores, `shadow`, `*password*`, `*secret*`, `*token*`) is refused at load",
  },
  shape: v.pipe(
    v.strictObject({
      path: v.union([
        relPathShape('relative to search_home, no ..'),
        absPathShape('under /etc, /usr/lib/systemd or the config folder'),
      ]),
      match: regexShape,
    }),
    v.description("a text file's first capture of the first match"),
  ),
  load: (r, at, x) => {
    const o = r.map(at, x, 'file', ['path', 'match'], ['path', 'match']);
    if (!o) return undefined;
    const p = [...at, 'path'];
    const path =
      typeof o.path === 'string' && o.path.startsWith('/')
        ? absPath(r, p, o.path, 'file path')
        : relPath(r, p, o.path, 'file path');
    const secret = path === undefined ? undefined : secretLooking(path);
    if (secret)
      return r.bad(
        p,
        `file path ${JSON.stringify(path)} is refused: ${secret}; a pack reads no secret (\`path:\` gives its mode and owner)`,
      );
    const match = regex(r, [...at, 'match'], o.match, 'file match');
    return path !== undefined && match !== undefined ? { kind: 'file', path, match } : undefined;
  },
  needs: (s, n) => {
    const f = fileNeed(s.path);
    if (f.base === 'abs' ? !secretLooking(f.path) : !unsafeRelPath(f.path)) n.files.set(fileKey(f), f);
  },
  read: (s, c) => {
    const f = fileNeed(s.path);
    const bad = f.base === 'abs' ? secretLooking(f.path) : unsafeRelPath(f.path);
    if (bad) return err(`file ${f.path} is refused: ${bad}`);
    const t = text(c.host!.packReads?.files[fileKey(f)], f.path);
    if (!t.ok) return t;
    if (t.text === null) return { ok: true, value: undefined, absent: 'is absent (no such file)' };
    const m = boundedExec(s.match, 'm', t.text);
    if (m && 'tooLong' in m) return err(`${f.path}: ${m.tooLong}`);
    if (!m) return { ok: true, value: undefined, absent: `has no line matching /${s.match}/` };
    const value = m[1] ?? m[0];
    return secretLines(t.text, m.index, m.index + m[0].length) ? { ...ok(value), secret: true } : ok(value);
  },
};
