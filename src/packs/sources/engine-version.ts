/** `engine_version`: the node's running engine version, from the cluster's `_cat/nodes` (fleet pack). */
import { engineVersion as version, FLEET_API } from '../read/sources-fleet.ts';
import type { SourceKind } from './kind.ts';

export const engineVersion: SourceKind<'engine_version'> = {
  doc: { write: '`engine_version`', value: "the node's running engine version (`_cat/nodes`)" },
  needs: (_, n) => void n.apiPaths.add(FLEET_API.versions),
  read: (_, c) => version(c),
};
