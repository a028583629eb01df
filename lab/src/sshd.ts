import { mkdir, readFile, writeFile, open } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { execa } from 'execa';
import { waitForListener, waitForBannerIn } from './net.ts';
import { inNetns } from './netns-exec.ts';

export const SSHD_PATH = process.env.SMDOCTOR_SSHD ?? '/usr/sbin/sshd';

export interface KeyPair {
  privatePath: string;
  /** The public key line: "ssh-ed25519 AAAA… comment". */
  publicKey: string;
}

/** ssh-keygen, unless the key already exists. */
export async function generateKey(path: string, comment = 'smdoctor-lab'): Promise<KeyPair> {
  const privatePath = resolve(path);
  if (!existsSync(privatePath)) {
    await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', privatePath]);
  }
  return { privatePath, publicKey: (await readFile(`${privatePath}.pub`, 'utf8')).trim() };
}

/** known_hosts form of a host: bare address on port 22, "[address]:port" otherwise. */
export function knownHostsName(address: string, port: number): string {
  return port === 22 ? address : `[${address}]:${port}`;
}

export function knownHostsLine(address: string, port: number, publicKey: string): string {
  const [type, key] = publicKey.split(/\s+/);
  return `${knownHostsName(address, port)} ${type} ${key}`;
}

export interface SshdOptions {
  /** Directory for this server's config, host key, pid file and log. Made absolute. */
  dir: string;
  address: string;
  port: number;
  /** Public key lines allowed to log in. */
  authorizedKeys: string[];
  /** Environment variables every session gets (sshd SetEnv). */
  setEnv?: Record<string, string>;
  /** Keep running after this process exits (lab up). */
  detached?: boolean;
  startTimeoutMs?: number;
  /** sshd LogLevel (default ERROR); VERBOSE logs logins, DEBUG1 each direct-tcpip forward. */
  logLevel?: string;
  /** Run inside this network namespace (`ip netns exec`); the banner check runs there too. */
  netns?: string;
  /** The `sftp` subsystem's command (default internal-sftp); null: none, as a node that disabled SFTP. */
  sftp?: string | null;
}

export interface SshdHandle {
  address: string;
  port: number;
  pid: number;
  pidFile: string;
  hostKey: KeyPair;
  knownHostsLine: string;
  stop(): Promise<void>;
}

export function configText(dir: string, options: SshdOptions): string {
  // SHLVL=1 stops bash from sourcing ~/.bashrc for every command, as it does when started by sshd:
  // a lab node stands for a server, not for this machine's interactive setup (here pyenv, 0.5 s a command).
  const vars = { SHLVL: '1', ...options.setEnv };
  const env = Object.entries(vars).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return [
    `ListenAddress ${options.address}:${options.port}`,
    `HostKey ${join(dir, 'ssh_host_ed25519_key')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'StrictModes no',
    'UsePAM no',
    'UseDNS no',
    'MaxStartups 200:30:400',
    'MaxSessions 64',
    `LogLevel ${options.logLevel ?? 'ERROR'}`,
    ...(options.sftp === null ? [] : [`Subsystem sftp ${options.sftp ?? 'internal-sftp'}`]),
    `SetEnv ${env.join(' ')}`,
    '',
  ].join('\n');
}

/** Starts one real OpenSSH server and waits until it sends its banner. */
export async function startSshd(opts: SshdOptions): Promise<SshdHandle> {
  const dir = resolve(opts.dir);
  await mkdir(dir, { recursive: true });
  await mkdir('/run/sshd', { recursive: true }).catch(() => undefined);
  const hostKey = await generateKey(join(dir, 'ssh_host_ed25519_key'), `sshd@${opts.address}`);
  await writeFile(join(dir, 'authorized_keys'), `${opts.authorizedKeys.join('\n')}\n`, { mode: 0o600 });
  const config = join(dir, 'sshd_config');
  await writeFile(config, configText(dir, opts));
  const log = await open(join(dir, 'sshd.log'), 'a');
  const argv: [string, string[]] = opts.netns
    ? inNetns(opts.netns, SSHD_PATH, ['-D', '-e', '-f', config])
    : [SSHD_PATH, ['-D', '-e', '-f', config]];
  // ip netns exec execs in place: the pid is sshd's
  const child = spawn(argv[0], argv[1], {
    detached: opts.detached ?? false,
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  const pid = child.pid;
  if (pid === undefined) throw new Error(`sshd did not start on ${opts.address}:${opts.port}`);
  const pidFile = join(dir, 'sshd.pid');
  await writeFile(pidFile, `${pid}\n`);
  let exited: string | null = null;
  child.once('exit', (code, sig) => (exited = `sshd exited (${sig ?? code}); see ${join(dir, 'sshd.log')}`));
  if (opts.detached) child.unref();
  try {
    await Promise.race([
      opts.netns
        ? waitForBannerIn(opts.netns, opts.address, opts.port, opts.startTimeoutMs ?? 10_000, 'SSH-')
        : waitForListener(opts.address, opts.port, opts.startTimeoutMs ?? 10_000, 'SSH-'),
      new Promise<never>((_, reject) => {
        const t = setInterval(() => exited && (clearInterval(t), reject(new Error(exited))), 25);
        t.unref();
      }),
    ]);
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
  return {
    address: opts.address,
    port: opts.port,
    pid,
    pidFile,
    hostKey,
    knownHostsLine: knownHostsLine(opts.address, opts.port, hostKey.publicKey),
    stop: () => stopPid(pid),
  };
}

/** Exists and is not a zombie: a dead child its parent has not reaped yet has exited all the same. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // field 3 of /proc/<pid>/stat, after the parenthesised command name
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return !existsSync('/proc/self/stat');
  }
}

/** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
export async function stopPid(pid: number, graceMs = 3000): Promise<void> {
  if (!pidAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (pidAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (pidAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  while (pidAlive(pid)) await new Promise((r) => setTimeout(r, 20));
}
