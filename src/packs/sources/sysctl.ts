/** `sysctl: NAME`: a `/proc/sys` value on the node. */
import * as v from 'valibot';
import { ok, text } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

const SYSCTL_RE = /^[a-z0-9_]+(\.[a-z0-9_-]+)*$/;

export const sysctl: SourceKind<'sysctl'> = {
  doc: { write: '`sysctl: NAME`', value: '`/proc/sys` value on the node (a number when it is one)' },
  shape: v.pipe(v.string(), v.regex(SYSCTL_RE), v.description('a /proc/sys value')),
  load: (r, at, x) => {
    const name = r.str(at, x, 'sysctl', { re: SYSCTL_RE, form: 'a sysctl name (vm.max_map_count)' });
    return name === undefined ? undefined : { kind: 'sysctl', name };
  },
  needs: (s, n) => void n.sysctls.add(s.name),
  read: (s, c) => {
    const t = text(c.host!.packReads?.sysctls[s.name], `sysctl ${s.name}`);
    if (!t.ok) return t;
    const v = t.text?.trim();
    return ok(v === undefined ? undefined : /^-?\d+$/.test(v) ? Number(v) : v);
  },
};
