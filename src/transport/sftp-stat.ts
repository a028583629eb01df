/**
 * Stats of many paths over a connection's one SFTP session, all requests in one write: serve's steady cycle asks
 * whether anything changed without starting a program on the node (sshd's internal-sftp or one sftp-server, opened
 * once per connection). Only attributes come back, never a file's bytes: nothing read here reaches a check.
 * The requests are framed here, not by ssh2's SFTP client, which sends each request as its own SSH packet (its own
 * padding, cipher and MAC): a host's batch is one packet.
 */
import type { Duplex } from 'node:stream';
import type { PathStat } from './types.ts';
import { FXP, initPacket, replyReader, requestsPacket, type Reply } from './sftp-wire.ts';

/** The node's sshd offers no SFTP (no `Subsystem sftp`): the batched command reads it every cycle instead. */
export class SftpUnavailable extends Error {}

// SFTP status codes (draft-ietf-secsh-filexfer-02 §7)
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;

/** The most paths one host may ask at once: a list from a hostile node's layout cannot grow a cycle without end. */
export const MAX_STAT_PATHS = 4096;

function statOf(path: string, r: Reply | undefined): PathStat {
  // the attributes the server sent, each only when it sent it
  if (r?.type === 'attrs') return { path, state: 'ok', ...r.attrs };
  const code = r?.type === 'status' ? r.code : undefined;
  return { path, state: code === NO_SUCH_FILE ? 'absent' : code === PERMISSION_DENIED ? 'denied' : 'failed' };
}

/** One SFTP session on an open `sftp` subsystem channel: INIT once, then batches of stats matched by request id. */
export class SftpSession {
  private nextId = 1;
  private readonly waiting = new Map<number, (r: Reply | undefined) => void>();
  private closed = false;

  private readonly channel: Duplex;

  private constructor(channel: Duplex) {
    this.channel = channel;
  }

  /** Speaks version 3 or rejects with SftpUnavailable; a peer that breaks the framing ends the session. */
  static open(channel: Duplex): Promise<SftpSession> {
    const s = new SftpSession(channel);
    return new Promise((resolve, reject) => {
      const read = replyReader();
      let version: ((r: Reply) => void) | null = (r) => {
        version = null;
        if (r.type === 'version' && r.version >= 3) resolve(s);
        else reject(new SftpUnavailable(`the SFTP server does not speak version 3`));
      };
      channel.on('data', (chunk: Buffer) => {
        let replies: Reply[];
        try {
          replies = read(chunk);
        } catch (err) {
          if (version) reject(new SftpUnavailable((err as Error).message));
          return s.close();
        }
        for (const r of replies) {
          if (version) version(r);
          else if (r.type === 'attrs' || r.type === 'status') s.answer(r.id, r);
        }
      });
      channel.on('error', () => s.close());
      channel.on('close', () => {
        if (version) reject(new SftpUnavailable('the SFTP session closed before it started'));
        s.close();
      });
      channel.write(initPacket());
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private answer(id: number, r: Reply | undefined): void {
    const done = this.waiting.get(id);
    this.waiting.delete(id);
    done?.(r);
  }

  /** Ends the session: every unanswered stat is 'failed' (so the host is read in full), and the channel closes. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const id of [...this.waiting.keys()]) this.answer(id, undefined);
    this.channel.destroy();
  }

  /**
   * lstat of each path, and stat of those in `follow` (every path when it is left out), in one write; resolves once
   * every answer is in. A path not followed gets its lstat twice: for anything but a symlink, stat says the same.
   */
  stat(paths: readonly string[], follow?: ReadonlySet<string>): Promise<Array<[PathStat, PathStat]>> {
    if (paths.length > MAX_STAT_PATHS) return Promise.reject(new Error(`more than ${MAX_STAT_PATHS} paths to stat`));
    // one promise for the batch, not one a request: a steady cycle makes about thirty requests a host
    return new Promise((resolve) => {
      const out = paths.map((path): [PathStat, PathStat] => [
        { path, state: 'failed' },
        { path, state: 'failed' },
      ]);
      const requests: Array<[typeof FXP.LSTAT | typeof FXP.STAT, number, string]> = [];
      const handlers: Array<(r: Reply | undefined) => void> = [];
      let left = 0;
      const ask = (kind: typeof FXP.LSTAT | typeof FXP.STAT, path: string, got: (s: PathStat) => void) => {
        requests.push([kind, this.nextId, path]);
        handlers.push((r) => {
          got(statOf(path, r));
          if (--left === 0) resolve(out);
        });
        this.nextId = (this.nextId % 0xffffffff) + 1;
      };
      paths.forEach((p, i) => {
        const both = !follow || follow.has(p);
        ask(FXP.LSTAT, p, (s) => {
          out[i]![0] = s;
          if (!both) out[i]![1] = s;
        });
        if (both) ask(FXP.STAT, p, (s) => (out[i]![1] = s));
      });
      left = requests.length;
      if (!left) return resolve(out);
      // a closed session answers nothing: its stats fail at once, and the host is read in full
      if (this.closed) return handlers.forEach((h) => h(undefined));
      requests.forEach(([, id], i) => this.waiting.set(id, handlers[i]!));
      this.channel.write(requestsPacket(requests));
    });
  }
}

/** S_IFLNK: the lstat of a symbolic link (POSIX file type bits). */
export const isSymlink = (p: PathStat): boolean => p.state === 'ok' && ((p.mode ?? 0) & 0o170000) === 0o120000;
