import { userInfo } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { LabHost, LabLayout } from './layout.ts';

type Vars = Record<string, string | number | boolean>;

function hostVars(l: LabLayout, h: LabHost): Vars {
  return {
    ansible_host: h.ip,
    search_home: h.searchHome,
    web_home: h.webHome,
    restart_command: `${join(l.dir, 'bin', 'labctl')} ${h.name} restart {service}`,
  };
}

/**
 * The lab's Ansible inventory: groups cluster_managers, data, dashboards; with
 * several clusters, one parent group per cluster holding its api_url.
 */
export function inventoryYaml(l: LabLayout, user = userInfo().username): string {
  const byName = new Map(l.hosts.map((h) => [h.name, h]));
  const vars: Vars = {
    ansible_user: user,
    ansible_port: l.hosts[0]?.sshPort ?? 2222,
    ansible_ssh_private_key_file: l.sshKeyFile,
    ssh_known_hosts_file: l.knownHostsFile,
    ssh_host_key_checking: 'strict',
    engine: l.engine,
    engine_user: user,
    api_username: 'admin',
    api_password_file: l.passwordFile,
    api_ca_file: l.caFile,
  };
  const group = (pred: (h: LabHost) => boolean) => {
    const hosts = Object.fromEntries(l.hosts.filter(pred).map((h) => [h.name, hostVars(l, h)]));
    return Object.keys(hosts).length ? { hosts } : { hosts: {} };
  };
  const isManager = (h: LabHost) => h.roles.includes('cluster_manager') || h.roles.includes('master');
  const children: Record<string, unknown> = {
    cluster_managers: group((h) => h.engineNode && isManager(h)),
    data: group((h) => h.engineNode && h.roles.includes('data')),
    dashboards: group((h) => h.webHost),
  };
  // Hosts with neither role still need their connection variables somewhere.
  const others = l.hosts.filter((h) => !(h.engineNode && (isManager(h) || h.roles.includes('data'))) && !h.webHost);
  if (others.length) children.other_nodes = { hosts: Object.fromEntries(others.map((h) => [h.name, hostVars(l, h)])) };
  if (l.bastion) {
    vars.ssh_config_file = l.bastion.sshConfigFile;
    vars.api_via_ssh = true;
  }
  if (l.clusters.length === 1) vars.api_url = l.clusters[0]!.apiUrl;
  else {
    for (const c of l.clusters) {
      const members = [...c.nodes, ...c.webHosts.filter((w) => !c.nodes.includes(w))];
      children[groupName(c.name)] = {
        vars: { api_url: c.apiUrl },
        hosts: Object.fromEntries(members.filter((m) => byName.has(m)).map((m) => [m, null])),
      };
    }
  }
  const head = [
    `# Written by smdoctor lab up (scenario ${l.scenario}) for the lab in ${l.dir}.`,
    l.bastion
      ? `# The lab is an emulated cluster in a network namespace reachable only through the bastion in ${l.bastion.sshConfigFile}, not a search engine.`
      : '# The lab is an emulated cluster on loopback addresses behind real OpenSSH servers, not a search engine.',
    '',
  ].join('\n');
  return head + stringify({ all: { vars, children } }, { nullStr: '' });
}

/** Ansible group names are identifiers. */
export function groupName(cluster: string): string {
  const g = cluster.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(g) ? g : `cluster_${g}`;
}
