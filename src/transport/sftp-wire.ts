/**
 * The few SFTP version 3 messages serve's stats need (draft-ietf-secsh-filexfer-02): INIT and VERSION, LSTAT and
 * STAT, their ATTRS or STATUS. Requests are encoded into one buffer, so a host's whole batch is one SSH packet;
 * replies are cut from the stream by their length, which a node cannot make larger than MAX_REPLY_BYTES.
 */

export const FXP = { INIT: 1, VERSION: 2, LSTAT: 7, STAT: 17, STATUS: 101, ATTRS: 105 } as const;
const ATTR = { SIZE: 0x1, UIDGID: 0x2, PERMISSIONS: 0x4, ACMODTIME: 0x8, EXTENDED: 0x80000000 } as const;

/** OpenSSH's own cap on one SFTP message (SFTP_MAX_MSG_LENGTH): a longer length prefix is a broken or hostile peer. */
export const MAX_REPLY_BYTES = 256 * 1024;

export class SftpProtocolError extends Error {}

/** What a stat's ATTRS says of a path: each attribute only when the server sent it. */
export interface Attrs {
  path: string;
  state: 'ok';
  size?: number;
  uid?: number;
  gid?: number;
  mode?: number;
  mtime?: number;
}

/** Where the replies go, as they are decoded (no object a reply but the attributes themselves). */
export interface ReplySink {
  version(version: number): void;
  attrs(id: number, attrs: Attrs): void;
  status(id: number, code: number): void;
}

/** INIT: the client speaks version 3. */
export const initPacket = (): Buffer => {
  const b = Buffer.alloc(9);
  b.writeUInt32BE(5, 0);
  b.writeUInt8(FXP.INIT, 4);
  b.writeUInt32BE(3, 5);
  return b;
};

/** `paths.length` LSTAT or STAT requests (`stat[i]`), ids from `first` on, all in one buffer. */
export function requestsPacket(paths: readonly string[], stat: readonly boolean[], first: number): Buffer {
  let size = 0;
  for (const p of paths) size += 13 + Buffer.byteLength(p, 'utf8');
  const b = Buffer.allocUnsafe(size);
  let o = 0;
  paths.forEach((p, i) => {
    const n = Buffer.byteLength(p, 'utf8');
    o = b.writeUInt32BE(9 + n, o);
    o = b.writeUInt8(stat[i] ? FXP.STAT : FXP.LSTAT, o);
    o = b.writeUInt32BE(first + i, o);
    o = b.writeUInt32BE(n, o);
    o += b.write(p, o, 'utf8');
  });
  return b;
}

// the message being decoded: decoding is synchronous, so one cursor serves every reply (no reader object a reply)
const EMPTY = Buffer.alloc(0);
let buf: Buffer = EMPTY;
let at = 0;
let end = 0;
const need = (n: number) => {
  if (at + n > end) throw new SftpProtocolError(`an SFTP reply ended ${at + n - end} bytes early`);
};
const u8 = () => (need(1), buf[at++]!);
const u32 = () => (need(4), (at += 4), buf.readUInt32BE(at - 4));
// two halves, no BigInt: a size past 2^53 loses its last bits, which a stamp can afford
const u64 = () => u32() * 0x100000000 + u32();
const skipString = () => {
  const n = u32();
  need(n);
  at += n;
};

function attrs(): Attrs {
  const flags = u32();
  // path and state first, so that every answer has the same shape; the path is the caller's to set
  const a: Attrs = { path: '', state: 'ok' };
  if (flags & ATTR.SIZE) a.size = u64();
  if (flags & ATTR.UIDGID) [a.uid, a.gid] = [u32(), u32()];
  if (flags & ATTR.PERMISSIONS) a.mode = u32();
  if (flags & ATTR.ACMODTIME) [, a.mtime] = [u32(), u32()];
  // extended attributes (type, data) are skipped: a stamp never depends on them
  if (flags & ATTR.EXTENDED)
    for (let n = u32(); n > 0; n--) {
      skipString();
      skipString();
    }
  return a;
}

/** The message in b[from, to) (its type byte first), told to `sink`; other types are not for a stat and are skipped. */
function decode(b: Buffer, from: number, to: number, sink: ReplySink): void {
  [buf, at, end] = [b, from, to];
  const kind = u8();
  if (kind === FXP.VERSION) sink.version(u32());
  else if (kind === FXP.ATTRS) {
    const id = u32();
    sink.attrs(id, attrs());
  } else if (kind === FXP.STATUS) {
    const id = u32();
    sink.status(id, u32());
  }
}

/** Cuts replies from the stream's chunks however they were split; a length over the cap throws SftpProtocolError. */
export function replyReader(sink: ReplySink): (chunk: Buffer) => void {
  let held: Buffer | null = null;
  return (chunk) => {
    const b = held ? Buffer.concat([held, chunk]) : chunk;
    let o = 0;
    try {
      while (b.length - o >= 4) {
        const n = b.readUInt32BE(o);
        if (n === 0 || n > MAX_REPLY_BYTES) throw new SftpProtocolError(`an SFTP reply of ${n} bytes`);
        if (b.length - o < 4 + n) break;
        decode(b, o + 4, o + 4 + n, sink);
        o += 4 + n;
      }
    } finally {
      buf = EMPTY;
    }
    // a reply cut by the stream waits for the rest; a copy, so the chunk it came in is not held
    held = o < b.length ? Buffer.from(b.subarray(o)) : null;
  };
}
