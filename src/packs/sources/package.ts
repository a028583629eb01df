/** `package: NAME`: the installed version (dpkg or rpm), one query per host for every package. */
import * as v from 'valibot';
import { PACKAGE_RE, packageLines, parsePackages } from '../host/package.ts';
import { err, hostRead, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const pkg: SourceKind<'package'> = {
  doc: {
    write: '`package: NAME`',
    value:
      'the installed version of the package (`dpkg-query` or `rpm`, as the host has), absent when it is not installed; a host with neither gives `error`',
  },
  shape: v.pipe(v.string(), v.regex(PACKAGE_RE), v.description('a package name (openssh-server)')),
  load: (r, at, x) => {
    const name = r.str(at, x, 'package', { re: PACKAGE_RE, form: 'a package name (letters, digits, . _ + -)' });
    return name === undefined ? undefined : { kind: 'package', name };
  },
  host: { key: (s) => s.name, lines: (names, _, tag) => packageLines(names, tag) },
  read: (s, c) => {
    for (const db of ['dpkg', 'rpm'] as const) {
      const r = hostRead(c, 'package', db);
      if (r?.error) return err(`${db} failed: ${r.error}`);
      if (r) return ok(parsePackages(r.text ?? '', db).get(s.name));
    }
    const none = hostRead(c, 'package', 'none');
    if (none) return err('the host has no package database smdoctor reads (dpkg or rpm)');
    return err(`package ${s.name} was not read (the batched command did not finish)`);
  },
};
