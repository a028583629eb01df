/** What a steady cycle counts as a change of one path: every field of its lstat and stat but a process folder's times. */
import t from 'tap';
import { sameStamp } from '../../../src/audit/watch.ts';
import type { PathStat } from '../../../src/transport/types.ts';

const file = (o: Partial<PathStat> = {}): PathStat => ({
  path: '/etc/opensearch/opensearch.yml',
  state: 'ok',
  mode: 0o100644,
  uid: 0,
  gid: 0,
  size: 10,
  mtime: 1_700_000_000,
  ...o,
});
const pair = (l: PathStat, s: PathStat = l) => [l, s] as const;

const cases: Array<[string, readonly [PathStat, PathStat], boolean]> = [
  ['the same answers', pair(file()), true],
  ['size', pair(file({ size: 11 })), false],
  ['mtime', pair(file({ mtime: 1_700_000_001 })), false],
  ['mode', pair(file({ mode: 0o100600 })), false],
  ['owner', pair(file({ uid: 1000 })), false],
  ['group', pair(file({ gid: 1000 })), false],
  ['gone', pair(file({ state: 'absent' })), false],
  ['denied now', pair(file({ state: 'denied' })), false],
  ["only the link's target changed", pair(file(), file({ size: 99 })), false],
  ['a process folder with new times', pair(file({ path: '/proc/42', size: 0, mtime: 1 })), true],
  ['a process folder of another owner', pair(file({ path: '/proc/42', uid: 7 })), false],
];

t.test('sameStamp against the last full read', async (t) => {
  const was = pair(file());
  const proc = pair(file({ path: '/proc/42' }));
  for (const [what, now, same] of cases)
    t.equal(sameStamp(now, now[0].path.startsWith('/proc/') ? proc : was), same, what);
  t.ok(sameStamp(pair(file({ state: 'absent' })), pair(file({ state: 'absent', size: 1 }))), 'absent both times');
});
