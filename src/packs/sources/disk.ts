/** `disk`: the node's data path from `_nodes/stats/fs` (fleet pack). */
import { disk as nodeDisk, FLEET_API } from '../read/sources-fleet.ts';
import type { SourceKind } from './kind.ts';

export const disk: SourceKind<'disk'> = {
  doc: {
    write: '`disk`',
    value: "the node's data path (`_nodes/stats/fs`): `{total_bytes, available_bytes, used_percent}`",
  },
  object: true,
  needs: (_, n) => void n.apiPaths.add(FLEET_API.fs),
  read: (_, c) => nodeDisk(c),
};
