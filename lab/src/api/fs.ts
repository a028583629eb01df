/** Disk use per node as the engine reports it: `_cat/allocation` and `_nodes/stats` (the `fs` metric). */
import type { NodeRuntime } from '../model.ts';
import { renderCat, type CatColumn, type CatRow } from './catfmt.ts';
import { humanBytes, nodeId, upNodes } from './cluster.ts';
import { defaultDisk } from './nodestats.ts';
import { route, type Ctx, type Route } from './router.ts';

/** The node's data path filesystem: the scenario's when it gives one. */
export const diskOf = (n: NodeRuntime): { total: number; available: number } => n.disk ?? defaultDisk(n.name);

// RestAllocationAction's columns, all shown by default
const ALLOCATION_COLUMNS: CatColumn[] = [
  { name: 'shards', aliases: ['s'], dflt: true, right: true },
  { name: 'disk.indices', aliases: ['di', 'diskIndices'], dflt: true, right: true },
  { name: 'disk.used', aliases: ['du', 'diskUsed'], dflt: true, right: true },
  { name: 'disk.avail', aliases: ['da', 'diskAvail'], dflt: true, right: true },
  { name: 'disk.total', aliases: ['dt', 'diskTotal'], dflt: true, right: true },
  { name: 'disk.percent', aliases: ['dp', 'diskPercent'], dflt: true, right: true },
  { name: 'host', aliases: ['h'], dflt: true },
  { name: 'ip', dflt: true },
  { name: 'node', aliases: ['n'], dflt: true },
];

function catAllocation(ctx: Ctx) {
  const shards = new Map<string, number>();
  let unassigned = 0;
  for (const name of ctx.store.names()) {
    for (const c of ctx.store.get(name)!.copies) {
      if (c.node) shards.set(c.node, (shards.get(c.node) ?? 0) + 1);
      else unassigned++;
    }
  }
  const bytes = ctx.query.bytes;
  const show = (n: number) => (bytes === 'b' ? String(n) : humanBytes(n));
  const rows: CatRow[] = upNodes(ctx.view)
    .filter((n) => n.roles.includes('data'))
    .map((n) => {
      const d = diskOf(n);
      const used = d.total - d.available;
      return {
        shards: String(shards.get(n.name) ?? 0),
        'disk.indices': show(0),
        'disk.used': show(used),
        'disk.avail': show(d.available),
        'disk.total': show(d.total),
        'disk.percent': String(Math.round((used * 100) / d.total)),
        host: n.ip,
        ip: n.ip,
        node: n.name,
      };
    });
  // the engine adds a row for the shards no node holds
  if (unassigned)
    rows.push({
      shards: String(unassigned),
      'disk.indices': null,
      'disk.used': null,
      'disk.avail': null,
      'disk.total': null,
      'disk.percent': null,
      host: null,
      ip: null,
      node: 'UNASSIGNED',
    });
  return renderCat(ALLOCATION_COLUMNS, rows, ctx.query);
}

/** GET _nodes/stats[/fs]: the `fs` section of each node (other metrics are not emulated and left out). */
function nodesStats(ctx: Ctx) {
  const now = Date.now();
  const picked = upNodes(ctx.view).filter(
    (n) =>
      !ctx.params.filter ||
      ctx.params.filter === '_all' ||
      ctx.params.filter
        .split(',')
        .some((w) => w === n.name || w === nodeId(n.name) || (w === '_local' && n.name === ctx.nodeName)),
  );
  const nodes = Object.fromEntries(
    picked.map((n) => {
      const d = diskOf(n);
      const space = { total_in_bytes: d.total, free_in_bytes: d.available, available_in_bytes: d.available };
      return [
        nodeId(n.name),
        {
          timestamp: now,
          name: n.name,
          transport_address: `${n.ip}:9300`,
          host: n.ip,
          ip: `${n.ip}:9300`,
          roles: [...n.roles].sort(),
          attributes: { ...n.attrs },
          fs: {
            timestamp: now,
            total: space,
            data: [{ path: `/var/lib/opensearch/nodes/0`, mount: '/ (/dev/vda1)', type: 'ext4', ...space }],
          },
        },
      ];
    }),
  );
  return {
    body: {
      _nodes: { total: picked.length, successful: picked.length, failed: 0 },
      cluster_name: ctx.view.clusterName,
      nodes,
    },
  };
}

export const fsRoutes: Route[] = [
  route('GET', '/_cat/allocation', catAllocation),
  route('GET', '/_nodes/stats', nodesStats),
  route('GET', '/_nodes/stats/{metric}', nodesStats),
  route('GET', '/_nodes/{filter}/stats', nodesStats),
  route('GET', '/_nodes/{filter}/stats/{metric}', nodesStats),
];
