/** `user: NAME`: a local account of the node, from `/etc/passwd`. */
import { shQuote as shq } from '../../transport/command.ts';
import * as v from 'valibot';
import { ACCOUNT_RE, findUser } from '../host/accounts.ts';
import { err, hostRead, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const user: SourceKind<'user'> = {
  doc: {
    write: '`user: NAME`',
    value: 'the local account (`/etc/passwd`): `{exists, uid, gid, home, shell}`; `{exists: false}` when there is none',
  },
  shape: v.pipe(v.string(), v.regex(ACCOUNT_RE), v.description('a user name')),
  object: true,
  load: (r, at, x) => {
    const name = r.str(at, x, 'user', { re: ACCOUNT_RE, form: 'a user name' });
    return name === undefined ? undefined : { kind: 'user', name };
  },
  host: { key: () => 'all', lines: (_, __, tag) => [`small ${shq(tag('all'))} /etc/passwd`] },
  read: (s, c) => {
    const r = hostRead(c, 'user', 'all');
    if (!r) return err('/etc/passwd was not read (the batched command did not finish)');
    if (r.error) return err(r.error);
    if (r.text === null) return err('the host has no /etc/passwd');
    return ok(findUser(r.text, s.name));
  },
};
