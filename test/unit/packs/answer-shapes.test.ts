/** The fleet pack's REST reads of a foreign shape: the source's error names the endpoint and the field. */
import t from 'tap';
import type { ApiAnswer, ApiFacts, HostFacts, NodeView } from '../../../src/model/index.ts';
import { disk, engineVersion, FLEET_API, shardUsage, watermarkVerdict } from '../../../src/packs/read/sources-fleet.ts';

const d1: NodeView = { name: 'd1', ip: '10.0.0.4', roles: ['data'], isMaster: false, host: 'd1' };
const context = (reads: Record<string, unknown>) => ({
  host: { host: 'd1' } as HostFacts,
  nodes: [d1],
  api: {
    reachable: true,
    packReads: Object.fromEntries(Object.entries(reads).map(([p, body]) => [p, { statusCode: 200, body }])),
  } as unknown as ApiFacts,
});
const settings = { persistent: {}, transient: {}, defaults: {} };

t.test('a foreign-shaped answer is an error naming the endpoint and the field', async (t) => {
  const cases: Array<[string, () => unknown, RegExp]> = [
    [
      'a version that is a number',
      () => engineVersion(context({ [FLEET_API.versions]: [{ name: 'd1', version: 2 }] })),
      /GET \/_cat\/nodes answered an unexpected shape: field \[0\]\.version is number 2, expected string/,
    ],
    [
      'free bytes as text',
      () =>
        disk(
          context({
            [FLEET_API.fs]: {
              nodes: { x: { name: 'd1', fs: { total: { total_in_bytes: 10, available_in_bytes: '5' } } } },
            },
          }),
        ),
      /GET \/_nodes\/stats\/fs answered an unexpected shape: field nodes\.x\.fs\.total\.available_in_bytes is string "5"/,
    ],
    [
      'a shard count as text',
      () =>
        shardUsage(
          context({
            [FLEET_API.health]: { active_shards: '10', number_of_data_nodes: 1 },
            [FLEET_API.settings]: settings,
          }),
        ),
      /GET \/_cluster\/health answered an unexpected shape: field active_shards is string "10", expected number/,
    ],
    [
      'a settings layer that is an array',
      () =>
        shardUsage(
          context({ [FLEET_API.health]: { active_shards: 1 }, [FLEET_API.settings]: { ...settings, persistent: [] } }),
        ),
      /GET \/_cluster\/settings answered an unexpected shape: field persistent is an array/,
    ],
    [
      'the watermark settings a string',
      () => watermarkVerdict({ used_percent: 50, available_bytes: 10 }, { statusCode: 200, body: 'x' } as ApiAnswer),
      /GET \/_cluster\/settings answered an unexpected shape: the body is string "x"/,
    ],
  ];
  for (const [name, run, want] of cases) {
    const r = run() as { ok?: boolean; error?: string };
    t.match(r, { error: want }, name);
    t.not(r.ok, true, `${name}: not read as a value`);
  }
});
