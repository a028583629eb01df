/** `engine_process: LIMIT`: a limit of the running engine process (`/proc/PID/limits`), or its start. */
import * as v from 'valibot';
import { startedAt } from '../read/sources-fleet.ts';
import { err, ok, text, type Read } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

const LIMIT_ROW = {
  max_locked_memory: 'Max locked memory',
  max_open_files: 'Max open files',
  max_processes: 'Max processes',
} as const;
const LIMITS = [...(Object.keys(LIMIT_ROW) as Array<keyof typeof LIMIT_ROW>), 'started_at'] as const;

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
      'a limit of the running engine process (`max_locked_memory`, `max_open_files`, `max_processes`): `unlimited` or a number; `started_at`: its start, epoch seconds',
  },
  shape: v.picklist(LIMITS),
  load: (r, at, x) => {
    const limit = r.oneOf(at, x, 'engine_process', LIMITS);
    return limit === undefined ? undefined : { kind: 'engine_process', limit };
  },
  needs: (s, n) => void (s.limit === 'started_at' ? (n.started = true) : (n.limits = true)),
  read: (s, c) => {
    if (s.limit === 'started_at') return startedAt(c);
    const t = text(c.host!.packReads?.limits, "the engine process's limits");
    if (!t.ok) return t;
    if (t.text === null) return err('no running engine process was found (its pid file names none)');
    return processLimit(t.text, s.limit);
  },
};
