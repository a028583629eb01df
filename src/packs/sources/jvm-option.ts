/** `jvm_option: -Xmx`: the effective value from jvm.options and jvm.options.d, with the launcher's rules. */
import * as v from 'valibot';
import { jvmOption as effective } from '../read/sources-jvm.ts';
import { err, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

const JVM_RE = /^-(X[a-z]+|XX:[A-Za-z][A-Za-z0-9_]*|D[A-Za-z0-9_.-]+)$/;

export const jvmOption: SourceKind<'jvm_option'> = {
  doc: {
    write: '`jvm_option: -Xmx` (or `-XX:NAME`, `-DNAME`)',
    value: 'the effective value from `config/jvm.options` and `config/jvm.options.d/*.options`, sizes as bytes',
  },
  shape: v.pipe(
    v.string(),
    v.regex(JVM_RE),
    v.description('-Xmx, -XX:NAME or -DNAME: the effective value from jvm.options and jvm.options.d'),
  ),
  load: (r, at, x) => {
    const option = r.str(at, x, 'jvm_option', { re: JVM_RE, form: 'a JVM option name (-Xmx, -XX:NAME, -DNAME)' });
    return option === undefined ? undefined : { kind: 'jvm_option', option };
  },
  needs: (_, n) => void (n.jvm = true),
  read: (s, c) => {
    const reads = c.host!.packReads;
    if (!reads) return err('jvm.options was not read');
    const r = effective(reads, s.option);
    return r.ok ? ok(r.value) : err(r.error);
  },
};
