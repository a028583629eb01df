/** Which hosts may carry a cluster's API under api_via_ssh: the named one, else the cluster's hosts in order. */

/** What the choice reads of a host: its api_via_ssh and how it is reached. */
export interface TunnelCandidate {
  apiViaSsh?: true | string;
  connection: 'ssh' | 'local';
}

export function tunnelHostsFor<H extends TunnelCandidate>(
  first: H,
  cluster: H[],
  byName: (name: string) => H,
): H[] | undefined {
  if (!first.apiViaSsh) return undefined;
  if (typeof first.apiViaSsh === 'string') return [byName(first.apiViaSsh)];
  return cluster.filter((c) => c.connection === 'ssh');
}
