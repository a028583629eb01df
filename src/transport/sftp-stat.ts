/**
 * Stats of many paths over a connection's one SFTP session, all requests in one write: serve's steady cycle asks
 * whether anything changed without starting a program on the node (sshd's internal-sftp or one sftp-server, opened
 * once per connection). Only attributes come back, never a file's bytes: nothing read here reaches a check.
 * The requests are framed here, not by ssh2's SFTP client, which sends each request as its own SSH packet (its own
 * padding, cipher and MAC): a host's batch is one packet.
 */
import type { Duplex } from 'node:stream';
import type { PathStat } from './types.ts';
import { initPacket, replyReader, requestsPacket, type Attrs } from './sftp-wire.ts';

/** The node's sshd offers no SFTP (no `Subsystem sftp`): the batched command reads it every cycle instead. */
export class SftpUnavailable extends Error {}

// SFTP status codes (draft-ietf-secsh-filexfer-02 §7)
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;

/** The most paths one host may ask at once: a list from a hostile node's layout cannot grow a cycle without end. */
export const MAX_STAT_PATHS = 4096;

const failedStat = (path: string, code?: number): PathStat => ({
  path,
  state: code === NO_SUCH_FILE ? 'absent' : code === PERMISSION_DENIED ? 'denied' : 'failed',
});

/** One batch's requests: ids first … first + paths.length - 1, each path's lstat or stat, answered in any order. */
interface Batch {
  first: number;
  paths: readonly string[];
  got: Array<PathStat | undefined>;
  left: number;
  settle(): void;
}

/** The highest SFTP request id (a uint32); a batch that would pass it starts again at 1. */
const MAX_ID = 0xffffffff;

/** One SFTP session on an open `sftp` subsystem channel: INIT once, then batches of stats matched by request id. */
export class SftpSession {
  private nextId = 1;
  /** The batches sent and not all answered (one at a time, as serve asks). */
  private readonly batches = new Set<Batch>();
  private closed = false;
  private readonly channel: Duplex;

  private constructor(channel: Duplex) {
    this.channel = channel;
  }

  /**
   * Speaks version 3 or rejects with SftpUnavailable: a peer that breaks the framing, speaks an older version or
   * does not answer INIT within `timeoutMs` (the channel is then closed) is read with the batched command instead.
   */
  static open(channel: Duplex, timeoutMs = 30_000): Promise<SftpSession> {
    const s = new SftpSession(channel);
    return new Promise((resolve, reject) => {
      let started = false;
      const refuse = (why: string) => {
        if (started) return;
        started = true;
        clearTimeout(timer);
        reject(new SftpUnavailable(why));
      };
      const timer = setTimeout(() => {
        refuse(`the SFTP server did not answer within ${timeoutMs / 1000}s`);
        s.close();
      }, timeoutMs);
      const read = replyReader({
        version(v) {
          if (v < 3) return refuse(`the SFTP server does not speak version 3`);
          if (started) return;
          started = true;
          clearTimeout(timer);
          resolve(s);
        },
        attrs: (id, a) => s.answer(id, a),
        status: (id, code) => s.answer(id, undefined, code),
      });
      channel.on('data', (chunk: Buffer) => {
        try {
          read(chunk);
        } catch (err) {
          refuse((err as Error).message);
          s.close();
        }
      });
      channel.on('error', () => s.close());
      channel.on('close', () => {
        refuse('the SFTP session closed before it started');
        s.close();
      });
      channel.write(initPacket());
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The answer to request `id`: its attributes, or the STATUS code that refused it; an unknown id is ignored. */
  private answer(id: number, attrs: Attrs | undefined, code?: number): void {
    for (const b of this.batches) {
      const i = id - b.first;
      if (i < 0 || i >= b.got.length || b.got[i]) continue;
      const path = b.paths[i]!;
      b.got[i] = attrs ? ((attrs.path = path), attrs) : failedStat(path, code);
      if (--b.left === 0) b.settle();
      return;
    }
  }

  /** Ends the session: every unanswered stat is 'failed' (so the host is read in full), and the channel closes. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const b of this.batches) b.settle();
    this.channel.destroy();
  }

  /**
   * lstat of each path, and stat of those in `follow` (every path when it is left out), in one write; resolves once
   * every answer is in. A path not followed gets its lstat twice: for anything but a symlink, stat says the same.
   */
  stat(paths: readonly string[], follow?: ReadonlySet<string>): Promise<Array<[PathStat, PathStat]>> {
    if (paths.length > MAX_STAT_PATHS) return Promise.reject(new Error(`more than ${MAX_STAT_PATHS} paths to stat`));
    // request i asks paths[index[i]]: its lstat, then (when followed) its stat right after
    const asked: string[] = [];
    const isStat: boolean[] = [];
    const index: number[] = [];
    paths.forEach((p, i) => {
      asked.push(p);
      isStat.push(false);
      index.push(i);
      if (!follow || follow.has(p)) {
        asked.push(p);
        isStat.push(true);
        index.push(i);
      }
    });
    if (this.nextId + asked.length > MAX_ID) this.nextId = 1;
    const first = this.nextId;
    this.nextId += asked.length;
    // one promise for the batch, not one a request: a steady cycle makes about thirty requests a host
    return new Promise((resolve) => {
      const batch: Batch = {
        first,
        paths: asked,
        got: new Array<PathStat | undefined>(asked.length).fill(undefined),
        left: asked.length,
        settle: () => {
          this.batches.delete(batch);
          const out = new Array<[PathStat, PathStat]>(paths.length);
          // a path's lstat comes before its stat: the pair is made at the lstat, its second half changed at the stat
          batch.got.forEach((g, r) => {
            const stat = g ?? failedStat(asked[r]!);
            if (isStat[r]) out[index[r]!]![1] = stat;
            else out[index[r]!] = [stat, stat];
          });
          resolve(out);
        },
      };
      // a closed session answers nothing: its stats fail at once, and the host is read in full
      if (this.closed || !asked.length) return batch.settle();
      this.batches.add(batch);
      this.channel.write(requestsPacket(asked, isStat, first));
    });
  }
}

/** S_IFLNK: the lstat of a symbolic link (POSIX file type bits). */
export const isSymlink = (p: PathStat): boolean => p.state === 'ok' && ((p.mode ?? 0) & 0o170000) === 0o120000;
