/** Hosts grouped into clusters by effective api_url. */
import { hostConfig } from './hostconfig.ts';
import type { ClusterGroup, Inventory } from './types.ts';
import { displayUrl } from './url-credentials.ts';

/**
 * Hosts with an explicit api_url group by it. Hosts without one share a single cluster whose url is
 * `https://<ansible_host of the first such host>:9200` — our reading of the documented default api_url, "of the first host":
 * an inventory that names no api_url describes one cluster, reached through its first node.
 */
export function clustersOf(
  inv: Inventory,
  hosts: string[],
  env?: NodeJS.ProcessEnv,
  // the default url follows the address the host is reached at (OpenSSH's HostName, applied above the inventory)
  apiUrlOf: (host: string) => string = (h) => hostConfig(inv, h, env).apiUrl,
): ClusterGroup[] {
  const byUrl = new Map<string, string[]>();
  let implicit: ClusterGroup | undefined;
  const out: ClusterGroup[] = [];
  for (const h of hosts) {
    const explicit = inv.hosts.get(h)?.vars.api_url;
    if (explicit !== undefined && explicit !== null && explicit !== '') {
      // grouped and shown without credentials; hostConfig keeps them to authenticate
      const url = displayUrl(String(explicit));
      let list = byUrl.get(url);
      if (!list) {
        byUrl.set(url, (list = []));
        out.push({ apiUrl: url, hosts: list });
      }
      list.push(h);
    } else if (implicit) implicit.hosts.push(h);
    else out.push((implicit = { apiUrl: apiUrlOf(h), hosts: [h] }));
  }
  // an implicit url equal to an explicit one is the same cluster
  if (implicit && byUrl.has(implicit.apiUrl)) {
    const target = byUrl.get(implicit.apiUrl)!;
    target.push(...implicit.hosts);
    out.splice(out.indexOf(implicit), 1);
    const order = new Map(hosts.map((h, i) => [h, i]));
    target.sort((a, b) => order.get(a)! - order.get(b)!);
  }
  return out;
}
