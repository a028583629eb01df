/**
 * serve's memory between cycles: each host's facts from its last full read with the stamps of what that read
 * depended on, and each cluster's report. A host whose stamps (one SFTP round trip, no program run) and whose
 * cluster's node list are unchanged keeps its facts unparsed; a cluster whose hosts and API answers are all unchanged
 * keeps its report. Every `fullEvery` cycles everything is read in full: an edit that keeps the mtime is caught then.
 */
import type { ApiFacts, ClusterReport, HostFacts } from '../model/index.ts';
import type { PathStat, Transport } from '../transport/types.ts';
import type { HostConfig } from '../inventory/types.ts';
import { SftpUnavailable, isSymlink } from '../transport/sftp-stat.ts';
import { denied, sameStamp, unsettled, watchedPaths } from './watch.ts';

interface HostEntry {
  /** The host's settings and its cluster's node list when it was read: either changed, it is read again. */
  key: string;
  nodes: string;
  paths: string[];
  /** Each path's lstat and stat at the last full read, in `paths`' order. */
  stamps: ReadonlyArray<readonly [PathStat, PathStat]>;
  /** The paths whose last lstat was a symlink: only these are also stat'ed (a change of kind changes the stamp). */
  links: ReadonlySet<string>;
  facts: HostFacts;
}

interface ClusterEntry {
  api: string;
  /** The facts `api` was made from: the same object next cycle, and `api` is not made again. */
  facts: ApiFacts;
  hosts: readonly HostFacts[];
  report: ClusterReport;
}

export interface AuditMemo {
  /** This cycle reads every host in full (the caller sets it, every --full-every cycles). */
  full: boolean;
  readonly hosts: Map<string, HostEntry>;
  readonly clusters: Map<string, ClusterEntry>;
  /** Hosts already told they are read in full every cycle, and why. */
  readonly told: Map<string, string>;
  /** Wall-clock ms (serve's clock): how recent an mtime is. */
  now: () => number;
  /** Said once per host and reason: a host whose changes SFTP cannot see is read every cycle. */
  note?: (host: string, message: string) => void;
  /** This cycle's count of hosts kept unread and of clusters whose report was kept. */
  kept: { hosts: number; clusters: number };
}

export const newAuditMemo = (o: { now: () => number; note?: (host: string, message: string) => void }): AuditMemo => ({
  full: true,
  hosts: new Map(),
  clusters: new Map(),
  told: new Map(),
  now: o.now,
  ...(o.note ? { note: o.note } : {}),
  kept: { hosts: 0, clusters: 0 },
});

/** Each object's key, made once: a cluster's answers are shared by its hosts, a host's settings by its cycles. */
function onceEach<T extends object>(key: (o: T) => string): (o: T) => string {
  const made = new WeakMap<T, string>();
  return (o) => {
    let k = made.get(o);
    if (k === undefined) made.set(o, (k = key(o)));
    return k;
  };
}

/** What of the cluster's API a host's read depends on: the nodes (the keystore decision, a node back) and plugins. */
export const nodesKey = onceEach((api: ApiFacts) => JSON.stringify([api.reachable, api.nodes, api.plugins]));

const hostKey = onceEach((cfg: HostConfig) => JSON.stringify(cfg));

function tell(memo: AuditMemo, host: string, why: string): void {
  if (memo.told.get(host) === why) return;
  memo.told.set(host, why);
  memo.note?.(host, why);
}

/** The host's kept facts when nothing it depends on changed since they were read; undefined: read it in full. */
export async function keptFacts(
  memo: AuditMemo,
  cfg: HostConfig,
  t: Transport,
  api: ApiFacts | PromiseLike<ApiFacts>,
  timeout: number,
): Promise<HostFacts | undefined> {
  const had = memo.hosts.get(cfg.name);
  if (memo.full || !had || !t.statPaths || had.key !== hostKey(cfg)) return undefined;
  const stats = await t.statPaths(had.paths, timeout, had.links).catch((err: unknown) => {
    // a stat that times out or loses the connection fails the host as a failed read would
    if (err instanceof SftpUnavailable) return undefined;
    throw err;
  });
  if (!stats) return undefined;
  const nowS = Math.floor(memo.now() / 1000);
  if (stats.some((s, i) => !sameStamp(s, had.stamps[i]!) || unsettled(s, nowS))) return undefined;
  if (nodesKey(await api) !== had.nodes) return undefined;
  memo.kept.hosts += 1;
  return had.facts;
}

/** After a full read: the stamps of what it depended on, kept for the next cycle (or why the host cannot be watched). */
export async function remember(
  memo: AuditMemo,
  cfg: HostConfig,
  t: Transport,
  facts: HostFacts,
  api: ApiFacts | PromiseLike<ApiFacts>,
  timeout: number,
): Promise<void> {
  memo.hosts.delete(cfg.name);
  // a host that failed, or read with errors, is read in full again: only a clean read is worth keeping
  if (!facts.reachable || facts.error) return;
  if (!t.statPaths) return tell(memo, cfg.name, 'no SFTP on this connection: every cycle reads the host in full');
  const paths = watchedPaths(cfg, facts);
  if (!paths) return;
  let stats;
  try {
    stats = await t.statPaths(paths, timeout);
  } catch (err) {
    if (err instanceof SftpUnavailable)
      return tell(memo, cfg.name, `${err.message}: every cycle reads the host with the batched command`);
    return;
  }
  const refused = denied(stats);
  if (refused)
    return tell(
      memo,
      cfg.name,
      `SFTP may not stat ${refused} (permission denied): every cycle reads the host with the batched command`,
    );
  memo.hosts.set(cfg.name, {
    key: hostKey(cfg),
    nodes: nodesKey(await api),
    paths,
    stamps: stats,
    links: new Set(stats.filter(([l]) => isSymlink(l)).map(([l]) => l.path)),
    facts,
  });
}
