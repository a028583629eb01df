/**
 * What serve's steady cycle stats to know a host is unchanged: every file and folder the batched read and the
 * keystore's answer depend on, found from the last full read (the node's folders, its plugins, its processes).
 */
import type { HostConfig } from '../inventory/types.ts';
import type { HostFacts } from '../model/index.ts';
import type { PathStat } from '../transport/types.ts';
import { engineNames } from '../facts/layout.ts';

/** The paths to stat after a full read of `facts` (sorted, each once); undefined when the read found no layout. */
export function watchedPaths(cfg: HostConfig, facts: HostFacts): string[] | undefined {
  const l = facts.layout;
  if (!l) return undefined;
  const e = cfg.engine;
  const n = engineNames(e);
  const [EC, EH, WC, WH] = [l.engineConfig.path, l.engineHome.path, l.webConfig.path, l.webHome.path];
  const paths = [
    // where the layout came from: the inventory's folders, the packages' and the service files', the pid file
    cfg.enginePidFile ?? `/var/run/${e}/${e}.pid`,
    `/etc/default/${e}`,
    `/etc/sysconfig/${e}`,
    `/usr/share/${e}`,
    `/etc/${e}/${e}.yml`,
    `/etc/default/${n.webPackage}`,
    `/etc/sysconfig/${n.webPackage}`,
    `/usr/share/${n.webPackage}`,
    `/etc/${n.webPackage}/${e}_dashboards.yml`,
    cfg.searchHome,
    cfg.webHome,
    ...(cfg.engineHome ? [cfg.engineHome] : []),
    ...(cfg.engineConfigDir ? [cfg.engineConfigDir] : []),
    ...(cfg.webConfigDir ? [cfg.webConfigDir] : []),
    // the configs, the keystore and its tool, the plugins' folder and each descriptor
    EC,
    `${EC}/${e}.yml`,
    `${EC}/${e}.keystore`,
    `${EH}/config`,
    `${EH}/bin/${e}-keystore`,
    WC,
    `${WC}/${e}_dashboards.yml`,
    WH,
    `${WH}/config`,
    `${EH}/plugins`,
    ...facts.plugins.flatMap((p) => [
      `${EH}/plugins/${p.folder}`,
      `${EH}/plugins/${p.folder}/plugin-descriptor.properties`,
    ]),
    // the processes whose environment was read: gone or replaced, the host is read again
    ...(l.engineProcess?.pid ? [`/proc/${l.engineProcess.pid}`] : []),
    ...(l.webProcess?.pid ? [`/proc/${l.webProcess.pid}`] : []),
  ];
  return [...new Set(paths)].sort();
}

/**
 * Whether a path's stamp is unchanged: what kind it is, owner, mode, size and mtime, of the path and of what it
 * points at. A process's folder counts only by being there (its times are the kernel's, not the process's). Fields
 * are compared as they are, no text built: a steady cycle compares about thirty paths a host.
 */
export function sameStamp([l, s]: readonly [PathStat, PathStat], [wasL, wasS]: readonly [PathStat, PathStat]): boolean {
  const same = (p: PathStat, was: PathStat) =>
    p.state === was.state &&
    (p.state !== 'ok' ||
      (p.mode === was.mode &&
        p.uid === was.uid &&
        p.gid === was.gid &&
        (p.path.startsWith('/proc/') || (p.size === was.size && p.mtime === was.mtime))));
  return same(l, wasL) && same(s, wasS);
}

/**
 * A stamp SFTP cannot vouch for: its mtime is so recent (by `nowSeconds`, with a margin for the node's clock) that
 * another edit in the same second would keep it, so the file is read again next cycle.
 */
export const unsettled = ([l, s]: readonly [PathStat, PathStat], nowSeconds: number): boolean =>
  [l, s].some((p) => p.state === 'ok' && !p.path.startsWith('/proc/') && (p.mtime ?? 0) >= nowSeconds - 2);

/** A path SFTP may not stat (the reads need root): its changes cannot be seen, so the host is read every cycle. */
export const denied = (stats: ReadonlyArray<readonly [PathStat, PathStat]>): string | undefined =>
  stats.find(([l, s]) => l.state === 'denied' || s.state === 'denied')?.[0].path;
