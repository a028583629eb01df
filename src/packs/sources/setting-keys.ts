/** `setting_keys`: every flattened key the node's `<engine>.yml` sets, names only (fleet pack). */
import { settingKeys as keys } from '../read/sources-fleet.ts';
import type { SourceKind } from './kind.ts';

export const settingKeys: SourceKind<'setting_keys'> = {
  doc: { write: '`setting_keys`', value: "every flattened key the node's `<engine>.yml` sets, names only" },
  read: (_, c) => keys(c),
};
