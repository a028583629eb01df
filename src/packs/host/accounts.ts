/** `user: NAME` and `group: NAME` from the host's `/etc/passwd` and `/etc/group` (local accounts; not LDAP or sssd). */

/** A name as the account tools take it: no colon, comma, space or control character. */
export const ACCOUNT_RE = /^[A-Za-z0-9._][A-Za-z0-9._-]{0,63}\$?$/;

export type UserInfo = { exists: false } | { exists: true; uid: number; gid: number; home: string; shell: string };
export type GroupInfo = { exists: false } | { exists: true; gid: number; members: string[] };

/** The first line of that name wins, as for getpwnam. */
export function findUser(passwd: string, name: string): UserInfo {
  for (const line of passwd.split('\n')) {
    const f = line.split(':');
    if (f.length >= 7 && f[0] === name && /^\d+$/.test(f[2]!) && /^\d+$/.test(f[3]!))
      return { exists: true, uid: Number(f[2]), gid: Number(f[3]), home: f[5]!, shell: f.slice(6).join(':') };
  }
  return { exists: false };
}

export function findGroup(group: string, name: string): GroupInfo {
  for (const line of group.split('\n')) {
    const f = line.split(':');
    if (f.length >= 4 && f[0] === name && /^\d+$/.test(f[2]!))
      return { exists: true, gid: Number(f[2]), members: f[3]!.split(',').filter(Boolean) };
  }
  return { exists: false };
}
