/** `mount: PATH`: the file system that holds PATH, from the mount table (`/proc/self/mounts`): the longest mount point. */

export interface MountInfo {
  source: string;
  type: string;
  options: string[];
}

// the kernel writes space, tab, newline and backslash in a mount's fields as \040, \011, \012, \134
const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

/** PATH as written (symlinks in it are not followed); the last of several mounts on one point is the one seen. */
export function mountOf(mounts: string, path: string): MountInfo | undefined {
  let best: { point: string; info: MountInfo } | undefined;
  for (const line of mounts.split('\n')) {
    const f = line.split(' ');
    if (f.length < 4) continue;
    const point = unescape(f[1]!);
    const under = point === '/' || path === point || path.startsWith(`${point}/`);
    if (under && (!best || point.length >= best.point.length))
      best = { point, info: { source: unescape(f[0]!), type: unescape(f[2]!), options: unescape(f[3]!).split(',') } };
  }
  return best?.info;
}
