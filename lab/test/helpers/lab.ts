import { execa } from 'execa';
import { userInfo } from 'node:os';

export interface SshTarget {
  keyFile: string;
  knownHostsFile: string;
  address: string;
  sshPort: number;
}

/** Runs a command on a lab node with the OpenSSH client, strict host key checking. */
export function ssh(t: SshTarget, cmd: string, input?: string) {
  return execa(
    'ssh',
    [
      '-i',
      t.keyFile,
      '-o',
      `UserKnownHostsFile=${t.knownHostsFile}`,
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      'BatchMode=yes',
      '-o',
      'ConnectTimeout=10',
      '-p',
      String(t.sshPort),
      `${userInfo().username}@${t.address}`,
      cmd,
    ],
    { reject: false, input },
  );
}

/** curl against a lab API; returns the HTTP status (000 when refused) and body. */
export async function curl(caFile: string, password: string, url: string, extra: string[] = []) {
  const r = await execa(
    'curl',
    ['-sS', '--max-time', '10', '--cacert', caFile, '-u', `admin:${password}`, '-w', '\n%{http_code}', ...extra, url],
    { reject: false },
  );
  const i = r.stdout.lastIndexOf('\n');
  return {
    status: Number(r.stdout.slice(i + 1)),
    body: r.stdout.slice(0, Math.max(i, 0)),
    exitCode: r.exitCode ?? -1,
    stderr: r.stderr,
  };
}

export const json = <T = unknown>(s: string): T => JSON.parse(s) as T;
