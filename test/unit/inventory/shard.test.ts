/** --shard K/N: the flag's forms, and a split by cluster that is stable, total and disjoint. */
import t from 'tap';
import { clustersInShard, parseShard, shardOf, MAX_SHARDS } from '../../../src/inventory/shard.ts';
import type { ClusterGroup } from '../../../src/inventory/types.ts';

t.test('K/N: K from 0, below N; anything else is refused naming the form', async (t) => {
  const good: Array<[string, { index: number; count: number }]> = [
    ['0/1', { index: 0, count: 1 }],
    ['2/3', { index: 2, count: 3 }],
    [' 7/8 ', { index: 7, count: 8 }],
    [`0/${MAX_SHARDS}`, { index: 0, count: MAX_SHARDS }],
  ];
  for (const [text, want] of good) t.same(parseShard(text), want, text);
  for (const bad of [
    '',
    '1',
    '3/3',
    '4/3',
    '0/0',
    '-1/3',
    '1/-3',
    '1.5/3',
    '0x1/3',
    '1/3/4',
    `0/${MAX_SHARDS + 1}`,
    'a/b',
  ])
    t.throws(() => parseShard(bad), { name: 'UsageError', message: /K\/N with 0 <= K < N/ }, JSON.stringify(bad));
});

const urls = Array.from({ length: 1000 }, (_, i) => `https://10.${i >> 8}.${i & 255}.1:9200`);

t.test('every cluster lands in exactly one shard, the same one every time', async (t) => {
  for (const n of [1, 2, 3, 7]) {
    const groups: ClusterGroup[] = urls.map((u, i) => ({ apiUrl: u, hosts: [`h${i}a`, `h${i}b`] }));
    const shards = Array.from({ length: n }, (_, k) => clustersInShard(groups, { index: k, count: n }));
    const seen = shards.flat().map((g) => g.apiUrl);
    t.equal(seen.length, urls.length, `N=${n}: no cluster twice, none lost`);
    t.same(new Set(seen), new Set(urls));
    for (const s of shards)
      t.ok(
        s.every((g, i) => i === 0 || g.position > s[i - 1]!.position),
        'in the inventory order',
      );
    const misplaced = shards.flatMap((s, k) => s.filter((g) => shardOf(g.apiUrl, n) !== k));
    t.same(misplaced, [], `N=${n}: each cluster is in the shard its url hashes to`);
  }
});

t.test('the split spreads clusters evenly (no shard gets twice its share of 1,000)', async (t) => {
  const n = 4;
  const sizes = Array.from({ length: n }, (_, k) => urls.filter((u) => shardOf(u, n) === k).length);
  for (const s of sizes) t.ok(s > 250 / 2 && s < 250 * 2, `shard size ${s} of 1000 over ${n}`);
});

t.test('positions are the clusters’ places among all of them, hosts travel with their cluster', async (t) => {
  const groups: ClusterGroup[] = urls.slice(0, 20).map((u, i) => ({ apiUrl: u, hosts: [`n${i}`] }));
  const mine = clustersInShard(groups, { index: 1, count: 3 });
  for (const g of mine) t.equal(groups[g.position]!.apiUrl, g.apiUrl);
  t.same(
    mine.map((g) => g.hosts),
    mine.map((g) => groups[g.position]!.hosts),
  );
});
