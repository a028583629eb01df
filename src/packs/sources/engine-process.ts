/** `engine_process: LIMIT`: a limit of the running engine process (`/proc/PID/limits`), or its start. */
import * as v from 'valibot';
import { shQuote as shq } from '../../transport/command.ts';
import { startedAt } from '../read/sources-fleet.ts';
import { err, hostRead, ok, text, type Read } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

const LIMIT_ROW = {
  max_locked_memory: 'Max locked memory',
  max_open_files: 'Max open files',
  max_processes: 'Max processes',
  max_file_size: 'Max file size',
  max_address_space: 'Max address space',
  // the engine's bootstrap check's name for the same limit (ulimit -v)
  max_size_virtual_memory: 'Max address space',
} as const;
const LIMITS = [...(Object.keys(LIMIT_ROW) as Array<keyof typeof LIMIT_ROW>), 'jvm_version', 'started_at'] as const;

/** `JAVA_VERSION="21.0.4"` of a JDK's `release` file. */
const javaVersion = (release: string | null | undefined) => /^JAVA_VERSION="?([^"\n]+)"?$/m.exec(release ?? '')?.[1];

/** The soft limit of `/proc/PID/limits`: `unlimited` or a number. */
function processLimit(table: string, limit: keyof typeof LIMIT_ROW): Read {
  const row = table.split('\n').find((l) => l.startsWith(LIMIT_ROW[limit]));
  const soft = row?.slice(LIMIT_ROW[limit].length).trim().split(/\s+/)[0];
  if (soft === undefined) return err(`the process's limits have no ${LIMIT_ROW[limit]} row`);
  return ok(soft === 'unlimited' ? 'unlimited' : Number(soft));
}

export const engineProcess: SourceKind<'engine_process'> = {
  doc: {
    write: '`engine_process: LIMIT`',
    value:
      "a limit of the running engine process (`max_locked_memory`, `max_open_files`, `max_processes`, `max_file_size`, `max_address_space`, and `max_size_virtual_memory`, the same limit as the engine's bootstrap check names it): `unlimited` or a number (bytes for sizes); `jvm_version`: the version of the JVM it runs (the `release` file of its JDK, else `jdk/release`); `started_at`: its start, epoch seconds",
  },
  shape: v.picklist(LIMITS),
  load: (r, at, x) => {
    const limit = r.oneOf(at, x, 'engine_process', LIMITS);
    return limit === undefined ? undefined : { kind: 'engine_process', limit };
  },
  needs: (s, n) => void (s.limit === 'started_at' ? (n.started = true) : (n.limits = true)),
  host: {
    key: (s) => (s.limit === 'jvm_version' ? 'jvm' : 'limits'),
    // the JDK the process runs (its exe's folder above bin/), read by its own head: a file its owner may write
    lines: (keys, _, tag) =>
      keys.includes('jvm')
        ? [
            `if [ -n "$pid" ] && x=$(readlink -- "$P/$pid/exe" 2>/dev/null); then sec ${shq(tag('jvm'))} "\${x%/bin/*}/release"; ` +
              `else printf '%s ABSENT %s\\n' "$B" ${shq(tag('jvm'))}; fi`,
            `sec ${shq(tag('bundled'))} "$H"/jdk/release`,
          ]
        : [],
  },
  read: (s, c) => {
    if (s.limit === 'started_at') return startedAt(c);
    if (s.limit === 'jvm_version') {
      const proc = hostRead(c, 'engine_process', 'jvm');
      const bundled = hostRead(c, 'engine_process', 'bundled');
      if (!proc || !bundled) return err('the JDK release files were not read (the batched command did not finish)');
      const v = javaVersion(proc.text) ?? javaVersion(bundled.text);
      return v === undefined ? err("no JAVA_VERSION in the process's JDK release file nor in jdk/release") : ok(v);
    }
    const t = text(c.host!.packReads?.limits, "the engine process's limits");
    if (!t.ok) return t;
    if (t.text === null) return err('no running engine process was found (its pid file names none)');
    return processLimit(t.text, s.limit);
  },
};
