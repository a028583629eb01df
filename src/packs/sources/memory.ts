/** `memory`: the node's total memory in bytes (`/proc/meminfo`). */
import { err, ok, text } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const memory: SourceKind<'memory'> = {
  doc: { write: '`memory`', value: "the node's total memory in bytes" },
  needs: (_, n) => void (n.memory = true),
  read: (_, c) => {
    const t = text(c.host!.packReads?.meminfo, 'meminfo');
    if (!t.ok) return t;
    const kb = /^MemTotal:\s+(\d+)\s*kB/m.exec(t.text ?? '');
    return kb ? ok(Number(kb[1]) * 1024) : err('meminfo has no MemTotal line');
  },
};
