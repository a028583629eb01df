/** `group: NAME`: a local group of the node, from `/etc/group`. */
import { shQuote as shq } from '../../transport/command.ts';
import * as v from 'valibot';
import { ACCOUNT_RE, findGroup } from '../host/accounts.ts';
import { err, hostRead, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const group: SourceKind<'group'> = {
  doc: {
    write: '`group: NAME`',
    value:
      'the local group (`/etc/group`): `{exists, gid, members}` (`members`: the names the group line lists); `{exists: false}` when there is none',
  },
  shape: v.pipe(v.string(), v.regex(ACCOUNT_RE), v.description('a group name')),
  object: true,
  load: (r, at, x) => {
    const name = r.str(at, x, 'group', { re: ACCOUNT_RE, form: 'a group name' });
    return name === undefined ? undefined : { kind: 'group', name };
  },
  host: { key: () => 'all', lines: (_, __, tag) => [`small ${shq(tag('all'))} /etc/group`] },
  read: (s, c) => {
    const r = hostRead(c, 'group', 'all');
    if (!r) return err('/etc/group was not read (the batched command did not finish)');
    if (r.error) return err(r.error);
    if (r.text === null) return err('the host has no /etc/group');
    return ok(findGroup(r.text, s.name));
  },
};
