/** The jump host of `lab up --bastion`: its sshd in the dmz namespace, and the ssh_config that leads through it. */
import { join } from 'node:path';
import type { LabBastion, LabLayout } from './layout.ts';
import { SSH_PORT } from './layout.ts';
import type { LabNet } from './netns.ts';
import { startSshd, type SshdHandle } from './sshd.ts';

export const BASTION_ALIAS = 'bastion';

export function bastionOf(dir: string, net: LabNet): LabBastion {
  return {
    ip: net.bastionAddr,
    sshPort: SSH_PORT,
    netns: net.dmz,
    fleetNetns: net.fleet,
    dir: join(dir, 'bastion', 'sshd'),
    sshConfigFile: join(dir, 'ssh', 'config'),
  };
}

/** DEBUG1 so that its log shows each login and each direct-tcpip forward to a node. */
export function startBastion(bastion: LabBastion, clientPublicKey: string, detached: boolean): Promise<SshdHandle> {
  return startSshd({
    dir: bastion.dir,
    address: bastion.ip,
    port: bastion.sshPort,
    authorizedKeys: [clientPublicKey],
    netns: bastion.netns,
    detached,
    logLevel: 'DEBUG1',
  });
}

/** Every node is reached through the bastion; the bastion has its own user, key and known_hosts, as OpenSSH wants. */
export function sshConfigText(layout: LabLayout, user: string): string {
  const b = layout.bastion!;
  const nodes = layout.hosts.map((h) => h.ip).join(' ');
  return [
    `# Written by smdoctor lab up --bastion for the lab in ${layout.dir}: the nodes are reachable only through the bastion.`,
    `Host ${BASTION_ALIAS}`,
    `    HostName ${b.ip}`,
    `    Port ${b.sshPort}`,
    `    User ${user}`,
    `    IdentityFile ${layout.sshKeyFile}`,
    '    IdentitiesOnly yes',
    `    UserKnownHostsFile ${layout.knownHostsFile}`,
    '    StrictHostKeyChecking yes',
    '',
    `Host ${nodes}`,
    `    ProxyJump ${BASTION_ALIAS}`,
    '',
  ].join('\n');
}
