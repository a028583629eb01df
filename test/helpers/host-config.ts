/** One inventory host as hostConfig() would make it, every field defaulted: the one host-config builder of the tests. */
import type { HostConfig } from '../../src/inventory/types.ts';

/** Host `name` at `over.address` (127.0.0.1 by default), its API on that address unless `over.apiUrl` says otherwise. */
export function hostConfigOf(name: string, over: Partial<HostConfig> = {}): HostConfig {
  const address = over.address ?? '127.0.0.1';
  return {
    name,
    connection: 'ssh',
    address,
    port: 22,
    user: 'admin',
    become: false,
    knownHostsFile: '/dev/null',
    hostKeyChecking: 'strict',
    engine: 'opensearch',
    searchHome: '/app/opensearch',
    webHome: '/app/opensearch-dashboards',
    engineUser: 'opensearch',
    restartCommand: 'systemctl restart {service}',
    apiUrl: `https://${address}:9200`,
    apiPasswordEnv: 'SMDOCTOR_API_PASSWORD',
    apiInsecure: false,
    inDashboardsGroup: false,
    ...over,
  };
}
