import { userInfo } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { LabHost, LabLayout } from './layout.ts';
import { pidFile, procRoot } from './nodefacts.ts';

type Vars = Record<string, string | number | boolean>;

/** Where the host's folders are, as the inventory says them: all of them, the packages' (told_by), or nothing. */
function folderVars(host: LabHost): Vars {
  if (host.packaged === 'inventory')
    return {
      engine_home: host.searchHome,
      engine_config_dir: host.engineConfigDir,
      ...(host.webHost ? { web_home: host.webHome, web_config_dir: host.webConfigDir } : {}),
    };
  // the processes tell the rest: the engine's through its pid file, the web application's by its home
  if (host.packaged === 'process') return host.webHost ? { web_home: host.webHome } : {};
  return { search_home: host.searchHome, web_home: host.webHome };
}

function hostVars(layout: LabLayout, host: LabHost): Vars {
  return {
    ansible_host: host.ip,
    ...folderVars(host),
    restart_command: `${join(layout.dir, 'bin', 'labctl')} ${host.name} restart {service}`,
    // the node's emulated /proc and its engine's pid file (check packs read sysctls, memory, process limits there)
    ...(host.engineNode
      ? { proc_root: procRoot(layout.dir, host.name), engine_pid_file: pidFile(layout.dir, host.name, layout.engine) }
      : {}),
  };
}

/**
 * The lab's Ansible inventory: groups cluster_managers, data, dashboards; with
 * several clusters, one parent group per cluster holding its api_url.
 */
export function inventoryYaml(layout: LabLayout, user = userInfo().username): string {
  const byName = new Map(layout.hosts.map((h) => [h.name, h]));
  const vars: Vars = {
    ansible_user: user,
    ansible_port: layout.hosts[0]?.sshPort ?? 2222,
    ansible_ssh_private_key_file: layout.sshKeyFile,
    ssh_known_hosts_file: layout.knownHostsFile,
    ssh_host_key_checking: 'strict',
    engine: layout.engine,
    engine_user: user,
    api_username: 'admin',
    api_password_file: layout.passwordFile,
    api_ca_file: layout.caFile,
  };
  const group = (pred: (host: LabHost) => boolean) => {
    const hosts = Object.fromEntries(layout.hosts.filter(pred).map((h) => [h.name, hostVars(layout, h)]));
    return Object.keys(hosts).length ? { hosts } : { hosts: {} };
  };
  const isManager = (host: LabHost) => host.roles.includes('cluster_manager') || host.roles.includes('master');
  const children: Record<string, unknown> = {
    cluster_managers: group((h) => h.engineNode && isManager(h)),
    data: group((h) => h.engineNode && h.roles.includes('data')),
    dashboards: group((h) => h.webHost),
  };
  // Hosts with neither role still need their connection variables somewhere.
  const others = layout.hosts.filter(
    (h) => !(h.engineNode && (isManager(h) || h.roles.includes('data'))) && !h.webHost,
  );
  if (others.length)
    children.other_nodes = { hosts: Object.fromEntries(others.map((h) => [h.name, hostVars(layout, h)])) };
  if (layout.bastion) {
    vars.ssh_config_file = layout.bastion.sshConfigFile;
    vars.api_via_ssh = true;
  }
  if (layout.clusters.length === 1) vars.api_url = layout.clusters[0]!.apiUrl;
  else {
    for (const c of layout.clusters) {
      const members = [...c.nodes, ...c.webHosts.filter((w) => !c.nodes.includes(w))];
      children[groupName(c.name)] = {
        vars: { api_url: c.apiUrl },
        hosts: Object.fromEntries(members.filter((m) => byName.has(m)).map((m) => [m, null])),
      };
    }
  }
  const head = [
    `# Written by smdoctor lab up (scenario ${layout.scenario}) for the lab in ${layout.dir}.`,
    layout.bastion
      ? `# The lab is an emulated cluster in a network namespace reachable only through the bastion in ${layout.bastion.sshConfigFile}, not a search engine.`
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
