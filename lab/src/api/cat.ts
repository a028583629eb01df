import type { NodeRuntime } from '../model.ts';
import { renderCat, type CatColumn, type CatRow } from './catfmt.ts';
import { humanBytes, isLine1, nodeId, nodeStats, upNodes, versionOf } from './cluster.ts';
import { resolveIndices } from './patterns.ts';
import { indexHealth, copyStats } from './shards.ts';
import { route, type Ctx, type Route } from './router.ts';
import type { Query } from './http.ts';
import { resourceStats } from './nodestats.ts';
import { diskOf } from './fs.ts';

const ROLE_LETTERS: Record<string, string> = {
  data: 'd',
  ingest: 'i',
  cluster_manager: 'm',
  master: 'm',
  remote_cluster_client: 'r',
  search: 's',
};

/** node.role: sorted letters of the known roles, `-` for none. */
export function roleLetters(roles: string[]): string {
  const letters = [...new Set(roles.map((r) => ROLE_LETTERS[r]).filter(Boolean))].sort().join('');
  return letters || '-';
}

const NODE_COLUMNS: CatColumn[] = [
  { name: 'id', aliases: ['nodeId'] },
  { name: 'pid', aliases: ['p'], right: true },
  { name: 'ip', aliases: ['i'], dflt: true },
  { name: 'port', aliases: ['po'], right: true },
  { name: 'http_address', aliases: ['http'] },
  { name: 'version', aliases: ['v'] },
  // RestNodesAction's order: a wildcard such as `heap.*` lists them so
  { name: 'disk.total', aliases: ['dt', 'diskTotal'], right: true },
  { name: 'disk.used', aliases: ['du', 'diskUsed'], right: true },
  { name: 'disk.avail', aliases: ['d', 'da', 'disk', 'diskAvail'], right: true },
  { name: 'disk.used_percent', aliases: ['dup', 'diskUsedPercent'], right: true },
  { name: 'heap.current', aliases: ['hc', 'heapCurrent'], right: true },
  { name: 'heap.percent', aliases: ['hp', 'heapPercent'], dflt: true, right: true },
  { name: 'heap.max', aliases: ['hm', 'heapMax'], right: true },
  { name: 'ram.percent', aliases: ['rp', 'ramPercent'], dflt: true, right: true },
  { name: 'file_desc.current', aliases: ['fdc', 'fileDescriptorCurrent'], right: true },
  { name: 'file_desc.percent', aliases: ['fdp', 'fileDescriptorPercent'], right: true },
  { name: 'file_desc.max', aliases: ['fdm', 'fileDescriptorMax'], right: true },
  { name: 'cpu', dflt: true, right: true },
  { name: 'load_1m', aliases: ['l'], dflt: true, right: true },
  { name: 'load_5m', dflt: true, right: true },
  { name: 'load_15m', dflt: true, right: true },
  { name: 'node.role', aliases: ['r', 'role', 'nodeRole'], dflt: true },
  { name: 'node.roles', aliases: ['rs', 'roles'], dflt: true },
  { name: 'cluster_manager', aliases: ['cm', 'm', 'master'], dflt: true },
  { name: 'name', aliases: ['n'], dflt: true },
];

// 1.x: no node.roles column, and the elected manager's column is `master` (RestNodesAction before 2.0)
const NODE_COLUMNS_1: CatColumn[] = NODE_COLUMNS.filter((c) => c.name !== 'node.roles').map((c) =>
  c.name === 'cluster_manager' ? { name: 'master', aliases: ['m'], dflt: true } : c,
);

function catNodes(ctx: Ctx) {
  const line1 = isLine1(ctx.view);
  const elected = ctx.view.electedManager();
  const full = 'full_id' in ctx.query && ctx.query.full_id !== 'false';
  const rows: CatRow[] = upNodes(ctx.view).map((n) => {
    const st = nodeStats(n.name);
    return {
      id: full ? nodeId(n.name) : nodeId(n.name).slice(0, 4),
      pid: st.pid,
      ip: n.ip,
      port: '9300',
      http_address: `${n.ip}:9200`,
      version: n.version ?? versionOf(ctx.view),
      ...resourceStats(n.name, st.heapPercent, diskOf(n)),
      'heap.percent': st.heapPercent,
      'ram.percent': st.ramPercent,
      cpu: st.cpu,
      load_1m: st.load1,
      load_5m: st.load5,
      load_15m: st.load15,
      'node.role': roleLetters(n.roles),
      // The engine prints `-` here too for a node without roles (coordinating only).
      'node.roles': [...n.roles].sort().join(',') || '-',
      [line1 ? 'master' : 'cluster_manager']: elected === null ? 'x' : elected === n.name ? '*' : '-',
      name: n.name,
    };
  });
  return renderCat(line1 ? NODE_COLUMNS_1 : NODE_COLUMNS, rows, ctx.query);
}

const NODEATTR_COLUMNS: CatColumn[] = [
  { name: 'node', dflt: true },
  { name: 'id', aliases: ['id', 'nodeId'] },
  { name: 'pid', aliases: ['p'], right: true },
  { name: 'host', aliases: ['h'], dflt: true },
  { name: 'ip', aliases: ['i'], dflt: true },
  { name: 'port', aliases: ['po'], right: true },
  { name: 'attr', aliases: ['attr.name'], dflt: true },
  { name: 'value', aliases: ['attr.value'], dflt: true },
];

function catNodeattrs(ctx: Ctx) {
  const rows: CatRow[] = upNodes(ctx.view).flatMap((runtime: NodeRuntime) =>
    Object.keys(runtime.attrs)
      .sort()
      .map((attr) => ({
        node: runtime.name,
        id: nodeId(runtime.name).slice(0, 4),
        pid: nodeStats(runtime.name).pid,
        host: runtime.ip,
        ip: runtime.ip,
        port: '9300',
        attr,
        value: runtime.attrs[attr],
      })),
  );
  return renderCat(NODEATTR_COLUMNS, rows, ctx.query);
}

const PLUGIN_COLUMNS: CatColumn[] = [
  { name: 'id' },
  { name: 'name', aliases: ['n'], dflt: true },
  { name: 'component', aliases: ['c'], dflt: true },
  { name: 'version', aliases: ['v'], dflt: true },
  { name: 'description', aliases: ['d'] },
];

function catPlugins(ctx: Ctx) {
  const rows: CatRow[] = upNodes(ctx.view).flatMap((n) =>
    [...n.plugins]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((p) => ({
        id: nodeId(n.name).slice(0, 4),
        name: n.name,
        component: p.name,
        version: p.version,
        description: `${p.name} plugin`,
      })),
  );
  return renderCat(PLUGIN_COLUMNS, rows, ctx.query);
}

const SHARD_COLUMNS: CatColumn[] = [
  { name: 'index', aliases: ['i', 'idx'], dflt: true },
  { name: 'shard', aliases: ['s', 'sh'], dflt: true, right: true },
  { name: 'prirep', aliases: ['p', 'pr', 'primaryOrReplica'], dflt: true },
  { name: 'state', aliases: ['st'], dflt: true },
  { name: 'docs', aliases: ['d', 'dc'], dflt: true, right: true },
  { name: 'store', aliases: ['sto'], dflt: true, right: true },
  { name: 'ip', dflt: true },
  { name: 'id' },
  { name: 'node', aliases: ['n'], dflt: true },
  { name: 'unassigned.reason', aliases: ['ur'] },
];

const size = (query: Query, n: number) => (query.bytes === 'b' ? String(n) : humanBytes(n));

function catShards(ctx: Ctx) {
  const names = resolveIndices(ctx.params.index, ctx.store.names(), {
    aliases: ctx.store.aliases(),
    allIncludesHidden: !ctx.params.index,
  });
  const ipOf = new Map(upNodes(ctx.view).map((n) => [n.name, n.ip]));
  const rows: CatRow[] = names.flatMap((name) => {
    const rec = ctx.store.get(name)!;
    return rec.copies.map((c) => {
      const st = copyStats(rec, c.shard);
      const on = c.node !== null;
      return {
        index: name,
        shard: String(c.shard),
        prirep: c.primary ? 'p' : 'r',
        state: c.state,
        docs: on ? String(st.docs) : null,
        store: on ? size(ctx.query, st.bytes) : null,
        ip: on ? (ipOf.get(c.node!) ?? null) : null,
        id: on ? nodeId(c.node!).slice(0, 4) : null,
        node: c.node,
        'unassigned.reason': on ? null : c.lastNode ? 'NODE_LEFT' : 'INDEX_CREATED',
      };
    });
  });
  return renderCat(SHARD_COLUMNS, rows, ctx.query);
}

const INDEX_COLUMNS: CatColumn[] = [
  { name: 'health', aliases: ['h'], dflt: true },
  { name: 'status', aliases: ['s'], dflt: true },
  { name: 'index', aliases: ['i', 'idx'], dflt: true },
  { name: 'uuid', aliases: ['id'], dflt: true },
  { name: 'pri', aliases: ['p', 'shards.primary', 'shardsPrimary'], dflt: true, right: true },
  { name: 'rep', aliases: ['r', 'shards.replica', 'shardsReplica'], dflt: true, right: true },
  { name: 'docs.count', aliases: ['dc', 'docsCount'], dflt: true, right: true },
  { name: 'docs.deleted', aliases: ['dd', 'docsDeleted'], dflt: true, right: true },
  { name: 'creation.date', aliases: ['cd'] },
  { name: 'store.size', aliases: ['ss', 'storeSize'], dflt: true, right: true },
  { name: 'pri.store.size', dflt: true, right: true },
];

function catIndices(ctx: Ctx) {
  const names = resolveIndices(ctx.params.index, ctx.store.names(), {
    aliases: ctx.store.aliases(),
    allIncludesHidden: !ctx.params.index,
  });
  const rows: CatRow[] = names.map((name) => {
    const rec = ctx.store.get(name)!;
    const shards = Number(rec.settings['index.number_of_shards']);
    let pri = 0;
    let all = 0;
    for (const c of rec.copies) {
      if (c.node === null) continue;
      const b = copyStats(rec, c.shard).bytes;
      all += b;
      if (c.primary) pri += b;
    }
    return {
      health: indexHealth(rec),
      status: 'open',
      index: name,
      uuid: rec.settings['index.uuid'],
      pri: String(shards),
      rep: rec.settings['index.number_of_replicas'],
      'docs.count': String(rec.docs.size),
      'docs.deleted': '0',
      'creation.date': rec.settings['index.creation_date'],
      'store.size': size(ctx.query, all),
      'pri.store.size': size(ctx.query, pri),
    };
  });
  return renderCat(INDEX_COLUMNS, rows, ctx.query);
}

export const catRoutes: Route[] = [
  route('GET', '/_cat/nodes', catNodes),
  route('GET', '/_cat/nodeattrs', catNodeattrs),
  route('GET', '/_cat/plugins', catPlugins),
  route('GET', '/_cat/shards', catShards),
  route('GET', '/_cat/shards/{index}', catShards),
  route('GET', '/_cat/indices', catIndices),
  route('GET', '/_cat/indices/{index}', catIndices),
];
