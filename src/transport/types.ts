/** What every check and command sees of a host: no sockets here, so fakes are easy. */
import type { SshFields } from '../model/index.ts';

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ExecOptions {
  /** Run with `sudo -n` when the host has ansible_become. */
  privileged?: boolean;
  /** Run as this user (`sudo -n -u USER`), unless it is the login user. */
  asUser?: string;
  /** Seconds; overrides the transport's default per-command timeout. */
  timeout?: number;
  /** Bytes for standard input. */
  stdin?: string;
  /** stdout and stderr as byte strings (one char per byte, latin1), so nothing is lost to UTF-8 decoding. */
  binary?: boolean;
}

/** `binary`: the content (and the backup) are byte strings, one char per byte, written and read back unchanged. */
export interface FileOptions {
  privileged?: boolean;
  binary?: boolean;
}

export interface WriteResult {
  /** The old content, or null when the file did not exist. */
  backup: string | null;
}

/** One path's attributes as SFTP gives them (whole seconds, no inode or ctime); what failed says only how. */
export interface PathStat {
  path: string;
  state: 'ok' | 'absent' | 'denied' | 'failed';
  mode?: number;
  uid?: number;
  gid?: number;
  size?: number;
  /** Seconds since the epoch. */
  mtime?: number;
}

export interface Transport {
  /** Inventory host name. */
  readonly host: string;
  /** Never rejects on a non-zero exit: the code is in the result. Rejects with TransportError on connection trouble or timeout. */
  exec(command: string, opts?: ExecOptions): Promise<ExecResult>;
  /** Resolves to null when the file does not exist. */
  readFile(path: string, opts?: FileOptions): Promise<string | null>;
  /** Temp file in the same directory, fsync, rename; keeps mode and owner. */
  writeFileAtomic(path: string, content: string, opts?: FileOptions): Promise<WriteResult>;
  close(): Promise<void>;
  /**
   * lstat and stat of each path over the connection's SFTP session, without starting a program on the host. Only
   * where the transport has SFTP; rejects with SftpUnavailable when the host's sshd offers none. With `follow`, only
   * those paths are also stat'ed; any other's stat is its lstat (what stat says of a path that is not a symlink).
   */
  statPaths?(
    paths: readonly string[],
    timeout: number,
    follow?: ReadonlySet<string>,
  ): Promise<Array<[PathStat, PathStat]>>;
}

/** A host as the transport reaches it: where, as whom, with which key and host-key checks, and the route there. */
export interface SshTarget extends SshFields {
  /** Inventory host name: Transport.host and every message. */
  name: string;
  /** OpenSSH client configuration, resolved (ssh_config, ssh arguments): set only when one applies. */
  ssh?: SshRoute;
}

/** What OpenSSH's configuration adds to a connection: keys, checks, and the path to reach the host. */
export interface SshRoute {
  /** The file it came from ('/dev/null' when only command-line options applied). */
  configFile: string;
  /** IdentityFile values that exist to try, in order, when no private key file is set. */
  identityFiles: string[];
  identitiesOnly: boolean;
  hostKeyAlias?: string;
  /** Jump hosts in the order they are connected: the last one forwards to this host. */
  jumps: SshTarget[];
  /** ProxyCommand with %h %p %r substituted (run by /bin/sh). */
  proxyCommand?: string;
  /** Seconds. */
  connectTimeout?: number;
  /** Seconds; 0 is off. */
  serverAliveInterval?: number;
  /** Told once per run: options that change behaviour and are ignored. */
  warnings: string[];
  /** Channels at once on each jump host (--jump-channels). */
  jumpChannels?: number;
}
