/** The fleet pack's sources and matchers over hand-made facts: seeds, the high watermark, the process start, shard usage. */
import t from 'tap';
import type { ApiFacts, HostFacts, NodeView } from '../../../src/model/index.ts';
import {
  FLEET_API,
  seedsVerdict,
  shardUsage,
  startedAt,
  watermarkVerdict,
} from '../../../src/packs/read/sources-fleet.ts';

const node = (name: string, ip: string, roles: string[]): NodeView => ({
  name,
  ip,
  roles,
  isMaster: false,
  host: name,
});
const NODES = [
  node('m1', '10.0.0.1', ['cluster_manager']),
  node('m2', '10.0.0.2', ['cluster_manager']),
  node('d1', '10.0.0.4', ['data']),
];

t.test('discovery.seed_hosts: every manager named, nothing from outside', async (t) => {
  const cases: Array<[string, unknown, RegExp | null]> = [
    ['by address', ['10.0.0.1', '10.0.0.2'], null],
    ['by name, with ports', ['m1:9300', 'm2:9301'], null],
    ['a comma-separated string, a data node too', '10.0.0.1, m2, d1', null],
    ['a manager missing', ['10.0.0.1'], /misses the manager-eligible m2/],
    ['a stranger', ['m1', 'm2', '192.0.2.10:9300'], /names 192\.0\.2\.10, no node of this cluster/],
    ['absent', undefined, /is absent/],
  ];
  for (const [what, v, why] of cases) {
    const r = seedsVerdict(v, NODES);
    if (why === null) t.same(r, { holds: true }, what);
    else t.match(r, { holds: false, why }, what);
  }
  t.match(seedsVerdict(['m1'], []), { error: /nodes are unknown/ }, 'no nodes: cannot be decided');
});

t.test('the high watermark: percent, ratio, free bytes; transient over persistent over the default', async (t) => {
  const settings = (high: string, where = 'defaults') => ({
    statusCode: 200,
    body: {
      persistent: {},
      transient: {},
      defaults: {},
      [where]: { 'cluster.routing.allocation.disk.watermark.high': high },
    },
  });
  const disk = (used: number, free: number) => ({ used_percent: used, available_bytes: free, total_bytes: 100 });
  const cases: Array<[string, unknown, ReturnType<typeof settings> | undefined, boolean | 'error']> = [
    ['default 90%: 89.9% holds', disk(89.9, 10), settings('90%'), true],
    ['default 90%: 93% fails', disk(93, 7), settings('90%'), false],
    ['a ratio 0.95', disk(93, 7), settings('0.95', 'persistent'), true],
    ['free bytes: 50gb wanted, 7 bytes free', disk(93, 7), settings('50gb', 'transient'), false],
    ['free bytes: 1kb wanted, 2048 free', disk(50, 2048), settings('1kb'), true],
    ['settings not read', disk(50, 10), undefined, 'error'],
    ['a watermark it cannot read', disk(50, 10), settings('lots'), 'error'],
  ];
  for (const [what, v, s, want] of cases) {
    const r = watermarkVerdict(v, s);
    if (want === 'error') t.ok('error' in r, what);
    else t.equal('holds' in r && r.holds, want, what);
  }
});

const reads = (procStat: string | null, boot = 'cpu 0\nbtime 1700000000\n', clk = '100\n') =>
  ({
    host: 'd1',
    packReads: {
      files: {},
      sysctls: {},
      procStat: { text: procStat },
      bootStat: { text: boot },
      clkTck: { text: clk },
    },
  }) as unknown as HostFacts;
const api = { reachable: true, nodes: [], nodeattrs: [], plugins: [], limitsShards: [] } as unknown as ApiFacts;

t.test('the engine process start: field 22 after the last parenthesis, over CLK_TCK, from btime', async (t) => {
  const fields = (comm: string, ticks: number) =>
    `4242 (${comm}) S 1 4242 4242 0 -1 4194560 ${Array(12).fill(0).join(' ')} ${ticks} 0 0\n`;
  t.same(startedAt({ host: reads(fields('java', 360000)), api }), { ok: true, value: 1700003600 });
  t.same(startedAt({ host: reads(fields('a (b) c', 250), undefined, '250\n'), api }), { ok: true, value: 1700000001 });
  t.match(startedAt({ host: reads(null), api }), { ok: false, error: /no running engine process/ });
});

t.test('shard usage: open shards over max_shards_per_node times data nodes', async (t) => {
  const a = (perNode: Record<string, string>, health: Record<string, number>) =>
    ({
      ...api,
      packReads: {
        [FLEET_API.health]: { statusCode: 200, body: health },
        [FLEET_API.settings]: {
          statusCode: 200,
          body: { persistent: perNode, transient: {}, defaults: { 'cluster.max_shards_per_node': '1000' } },
        },
      },
    }) as unknown as ApiFacts;
  const h = { active_shards: 10, initializing_shards: 1, unassigned_shards: 2, number_of_data_nodes: 3 };
  t.same(shardUsage({ host: null, api: a({ 'cluster.max_shards_per_node': '5' }, h) }), { ok: true, value: 13 / 15 });
  t.same(shardUsage({ host: null, api: a({}, h) }), { ok: true, value: 13 / 3000 }, 'the default 1000');
  t.match(shardUsage({ host: null, api }), { ok: false, error: /was not read/ });
});
