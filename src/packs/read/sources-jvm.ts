/**
 * jvm.options as the engine's launcher reads it (OpenSearch's JvmOptionsParser): `#` comments and blank lines
 * skipped, `N:`, `N-:` and `N-M:` prefixes kept only when the JDK major fits, `config/jvm.options` first and then
 * `config/jvm.options.d/*.options` in name order, the last occurrence of an option winning as it does for the JVM.
 */
import type { PackHostReads } from '../../model/index.ts';

export type JvmValue = { ok: true; value: string | number | boolean | undefined } | { ok: false; error: string };

/** The JDK major from `jdk/release` (`JAVA_VERSION="17.0.2"`, `"1.8.0_292"` is 8); undefined when it cannot be read. */
export function jdkMajor(release: string | null | undefined): number | undefined {
  const m = /^JAVA_VERSION="?(\d+)(?:\.(\d+))?/m.exec(release ?? '');
  if (!m) return undefined;
  const first = Number(m[1]);
  return first === 1 && m[2] ? Number(m[2]) : first;
}

const SIZE_UNITS: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** `4g` as bytes, as the JVM reads sizes; undefined when it is not a size. */
export function jvmBytes(s: string): number | undefined {
  const m = /^(\d+)([kmgt]?)$/i.exec(s);
  return m ? Number(m[1]) * (m[2] ? SIZE_UNITS[m[2].toLowerCase()]! : 1) : undefined;
}

/** What the option's line gives: `-Xmx4g` → bytes, `-XX:+Name` → true, `-XX:Name=v`, `-Dname=v`; undefined: another option. */
function valueOf(option: string, line: string): string | number | boolean | undefined {
  if (option.startsWith('-XX:')) {
    const name = option.slice(4);
    if (line === `-XX:+${name}`) return true;
    if (line === `-XX:-${name}`) return false;
    if (!line.startsWith(`-XX:${name}=`)) return undefined;
    const v = line.slice(option.length + 1);
    return jvmBytes(v) ?? v;
  }
  if (option.startsWith('-D')) {
    if (line === option) return '';
    return line.startsWith(`${option}=`) ? line.slice(option.length + 1) : undefined;
  }
  // -Xmx4g, -Xss1m: the value follows the option's name directly
  if (!line.startsWith(option) || line.length === option.length) return undefined;
  const v = line.slice(option.length);
  return jvmBytes(v) ?? v;
}

type Applies = boolean | 'unknown' | 'invalid';

/** Whether a `N:`, `N-:` or `N-M:` prefix applies to this JDK major. */
function applies(prefix: string, major: number | undefined): Applies {
  const m = /^(\d+)(-(\d+)?)?$/.exec(prefix);
  if (!m) return 'invalid';
  if (major === undefined) return 'unknown';
  const lo = Number(m[1]);
  const hi = m[2] === undefined ? lo : m[3] === undefined ? Infinity : Number(m[3]);
  return major >= lo && major <= hi;
}

/** The effective value of one option on one node; an unreadable file, or a version-conditional line of the option on a
 * node whose JDK major is unknown, makes it unknown (an error), never a guess. */
export function jvmOption(reads: PackHostReads, option: string): JvmValue {
  const major = jdkMajor(reads.jdkRelease?.text);
  const files: Array<[string, { text: string | null; error?: string } | undefined]> = [
    ['config/jvm.options', reads.jvmOptions],
    ...Object.keys(reads.jvmOptionsD ?? {})
      .sort()
      .map((n): [string, { text: string | null; error?: string }] => [
        `config/jvm.options.d/${n}`,
        reads.jvmOptionsD![n]!,
      ]),
  ];
  let value: string | number | boolean | undefined;
  for (const [name, read] of files) {
    if (!read) return { ok: false, error: `${name} was not read` };
    if (read.error) return { ok: false, error: read.error };
    for (const [i, raw] of (read.text ?? '').split(/\r?\n/).entries()) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const m = /^(\d[\d-]*):(-.*)$/.exec(line);
      const opt = m ? m[2]! : line;
      const v = valueOf(option, opt);
      if (v === undefined) continue;
      const ok = m ? applies(m[1]!, major) : true;
      if (ok === 'invalid') return { ok: false, error: `${name}:${i + 1}: a version prefix the engine refuses` };
      if (ok === 'unknown')
        return { ok: false, error: `${name}:${i + 1} depends on the JDK version, and jdk/release could not be read` };
      if (ok) value = v;
    }
  }
  return { ok: true, value };
}
