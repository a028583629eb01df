/** A node's heap, file descriptors and disk for `_cat/nodes`: stable per node name, plausible, not measured. */
import { createHash } from 'node:crypto';
import { humanBytes } from './cluster.ts';

const GB = 1024 ** 3;

/** Rounded as `_cat` prints sizes (`1.9gb`): whole tenths of the unit. */
const size = (bytes: number) => humanBytes(Math.round(bytes / (GB / 10)) * (GB / 10));

const digest = (name: string) => createHash('sha256').update(`resources:${name}`).digest();

/** The data path's filesystem of a node the scenario gives none. */
export function defaultDisk(name: string): { total: number; available: number } {
  const d = digest(name);
  const total = (50 + (d[3] % 200)) * GB;
  return { total, available: total - Math.round(total * (0.1 + (d[4] % 70) / 100)) };
}

export function resourceStats(
  name: string,
  heapPercent: string,
  disk: { total: number; available: number } = defaultDisk(name),
): Record<string, string> {
  const d = digest(name);
  const heapMax = (2 + (d[0] % 6)) * GB;
  const fdMax = 65535;
  const fdCurrent = 300 + (((d[1] << 8) | d[2]) % 2000);
  const diskTotal = disk.total;
  const diskUsed = diskTotal - disk.available;
  return {
    'heap.current': size((heapMax * Number(heapPercent)) / 100),
    'heap.max': size(heapMax),
    'file_desc.current': String(fdCurrent),
    'file_desc.percent': String(Math.round((fdCurrent * 100) / fdMax)),
    'file_desc.max': String(fdMax),
    'disk.total': size(diskTotal),
    'disk.used': size(diskUsed),
    'disk.avail': size(diskTotal - diskUsed),
    'disk.used_percent': ((diskUsed * 100) / diskTotal).toFixed(2),
  };
}
