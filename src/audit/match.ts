/** Which `_cat/nodes` row is which inventory host: by address, else by host name, else by configured node.name. */
import type { CatRow } from '../model/index.ts';

export interface HostIdentity {
  host: string;
  address: string;
  /** `node.name` from the host's engine config, when read. */
  nodeName?: string;
}

export function rowMatchesHost(row: CatRow, id: HostIdentity): 'address' | 'name' | null {
  if (row.ip && row.ip === id.address) return 'address';
  if (row.name && (row.name === id.host || (id.nodeName !== undefined && row.name === id.nodeName))) return 'name';
  return null;
}

/** Address matches win over name matches, so a host named like another node cannot steal it. */
export function findRow(rows: CatRow[], id: HostIdentity): CatRow | undefined {
  return rows.find((r) => rowMatchesHost(r, id) === 'address') ?? rows.find((r) => rowMatchesHost(r, id) === 'name');
}
