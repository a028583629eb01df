/** OpenSearch's _cat APIs, one behaviour at a time, through the official client against the lab API. */
import t from 'tap';
import { startLab, call } from '../../helpers/api-fixture.ts';

const lab = await startLab(t);
const get = (path: string, querystring: Record<string, unknown> = {}) =>
  call(lab, { method: 'GET', path, querystring });

// The default columns of each _cat API, in the order the facts give them.
const DEFAULTS: Array<[string, string[]]> = [
  [
    '/_cat/nodes',
    [
      'ip',
      'heap.percent',
      'ram.percent',
      'cpu',
      'load_1m',
      'load_5m',
      'load_15m',
      'node.role',
      'node.roles',
      'cluster_manager',
      'name',
    ],
  ],
  ['/_cat/plugins', ['name', 'component', 'version']],
  ['/_cat/nodeattrs', ['node', 'host', 'ip', 'attr', 'value']],
  ['/_cat/shards/.sm_sme_limits_user', ['index', 'shard', 'prirep', 'state', 'docs', 'store', 'ip', 'node']],
  [
    '/_cat/indices/logs',
    ['health', 'status', 'index', 'uuid', 'pri', 'rep', 'docs.count', 'docs.deleted', 'store.size', 'pri.store.size'],
  ],
];

/** Start offsets of the blank runs every line shares: each is a column gap, so each must be one space wide. */
function gaps(lines: string[]): number[][] {
  const width = Math.max(...lines.map((l) => l.length));
  const runs: number[][] = [];
  for (let i = 0; i < width; i++) {
    if (!lines.every((l) => (l[i] ?? ' ') === ' ')) continue;
    const last = runs[runs.length - 1];
    if (last && last[last.length - 1] === i - 1) last.push(i);
    else runs.push([i]);
  }
  return runs;
}

t.test('text by default: one space between padded columns, header only with v=true', async (t) => {
  for (const [path, cols] of DEFAULTS) {
    const plain = await get(path);
    t.equal(plain.headers['content-type'], 'text/plain; charset=UTF-8', path);
    t.type(plain.body, 'string', `${path}: the client leaves text unparsed`);
    const verbose = await get(path, { v: true });
    const lines = (verbose.body as string).split('\n');
    t.equal(lines.pop(), '', `${path}: ends with a newline`);
    t.same(lines[0]!.trim().split(/ +/), cols, `${path}: header is the default columns`);
    const cells = (text: string) =>
      text
        .trimEnd()
        .split('\n')
        .map((l) => l.trim().split(/ +/));
    t.same(cells(lines.slice(1).join('\n')), cells(plain.body as string), `${path}: same rows without the header`);
    t.notOk((plain.body as string).includes(cols.join(' ')), `${path}: no header without v`);
    t.equal((await get(path, { v: false })).body, plain.body, `${path}: v=false is no header`);
    t.same(
      gaps(lines).map((r) => r.length),
      cols.slice(1).map(() => 1),
      `${path}: ${cols.length - 1} one-space gaps`,
    );
  }
});

t.test('format=json: an array of objects, default columns as keys, values strings or null', async (t) => {
  for (const [path, cols] of DEFAULTS) {
    const r = await get(path, { format: 'json' });
    t.match(r.headers['content-type'], /^application\/json/, path);
    t.ok(Array.isArray(r.body) && r.body.length > 0, `${path}: rows`);
    for (const row of r.body) {
      t.same(Object.keys(row), cols, `${path}: keys in order`);
      for (const v of Object.values(row))
        t.ok(typeof v === 'string' || v === null, `${path}: ${JSON.stringify(v)} is a string or null`);
    }
  }
});

t.test('h=: order asked, every alias of cluster_manager, node.role and name is the key, unknown dropped', async (t) => {
  const cases: Array<[string, string[], Record<string, string>]> = [
    [
      'cluster_manager,cm,m,master',
      ['cluster_manager', 'cm', 'm', 'master'],
      { cluster_manager: '*', cm: '*', m: '*', master: '*' },
    ],
    ['node.role,r,role', ['node.role', 'r', 'role'], { 'node.role': 'm', r: 'm', role: 'm' }],
    ['n,name', ['n', 'name'], { n: 'master-1', name: 'master-1' }],
    [
      'name,bogus,ip,also.bogus,node.roles',
      ['name', 'ip', 'node.roles'],
      { name: 'master-1', 'node.roles': 'cluster_manager' },
    ],
    ['nope', [], {}],
  ];
  for (const [h, keys, values] of cases) {
    const r = await get('/_cat/nodes', { format: 'json', h });
    t.same(Object.keys(r.body[0]), keys, `h=${h}`);
    if (keys.length) t.match(r.body[0], values, `h=${h} values of master-1`);
  }
  const text = await get('/_cat/nodes', { h: 'master,n', v: true });
  // RestTable pads no left-aligned last column
  t.match((text.body as string).split('\n')[0], /^master n$/, 'text header uses the alias too');
});

t.test('node.role letters and node.roles for every role set', async (t) => {
  const d2 = lab.view.all.find((n) => n.name === 'data-2')!;
  const saved = d2.roles;
  t.teardown(() => {
    d2.roles = saved;
  });
  const cases: Array<[string[], string, string]> = [
    [
      ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'],
      'dimr',
      'cluster_manager,data,ingest,remote_cluster_client',
    ],
    [['data'], 'd', 'data'],
    [['ingest'], 'i', 'ingest'],
    [['cluster_manager'], 'm', 'cluster_manager'],
    [['master', 'data'], 'dm', 'data,master'],
    [['remote_cluster_client'], 'r', 'remote_cluster_client'],
    [['search'], 's', 'search'],
    [['search', 'data', 'ingest'], 'dis', 'data,ingest,search'],
    [[], '-', '-'],
    [['ml'], '-', 'ml'],
  ];
  for (const [roles, letters, names] of cases) {
    d2.roles = roles;
    const r = await get('/_cat/nodes', { format: 'json', h: 'n,r,node.roles' });
    t.same(
      r.body.find((row: any) => row.n === 'data-2'),
      { n: 'data-2', r: letters, 'node.roles': names },
      roles.join(',') || 'no role',
    );
  }
});

t.test('cluster_manager: * elected, - other; 503 when none is elected, as the engine answers', async (t) => {
  const marks = async () =>
    Object.fromEntries((await get('/_cat/nodes', { format: 'json', h: 'n,cm' })).body.map((r: any) => [r.n, r.cm]));
  t.same(await marks(), { 'master-1': '*', 'master-2': '-', 'master-3': '-', 'data-1': '-', 'data-2': '-' });
  const elected = lab.view.electedManager;
  t.teardown(() => {
    lab.view.electedManager = elected;
  });
  lab.view.electedManager = () => 'master-2';
  t.match(await marks(), { 'master-1': '-', 'master-2': '*' });
  lab.view.electedManager = () => null;
  const none = await get('/_cat/nodes', { format: 'json', h: 'n,cm' });
  t.match(none, {
    statusCode: 503,
    body: { error: { type: 'cluster_manager_not_discovered_exception', reason: null } },
  });
});

t.test('_cat/plugins: one row per node per plugin, nodes without plugins have none', async (t) => {
  const m2 = lab.view.all.find((n) => n.name === 'master-2')!;
  t.teardown(() => {
    m2.plugins = [];
  });
  m2.plugins = [
    { name: 'b-plugin', version: '1' },
    { name: 'a-plugin', version: '2' },
  ];
  const r = await get('/_cat/plugins', { format: 'json' });
  t.same(
    r.body.filter((row: any) => row.name === 'master-2'),
    [
      { name: 'master-2', component: 'a-plugin', version: '2' },
      { name: 'master-2', component: 'b-plugin', version: '1' },
    ],
  );
  t.notOk(r.body.some((row: any) => row.name === 'master-3' || row.name === 'data-2'));
});

t.test('_cat/nodeattrs: one row per node attribute', async (t) => {
  const r = await get('/_cat/nodeattrs', { format: 'json' });
  const d1 = lab.view.all.find((n) => n.name === 'data-1')!;
  t.same(
    r.body.filter((row: any) => row.node === 'data-1'),
    [
      { node: 'data-1', host: d1.ip, ip: d1.ip, attr: 'node_with_sme', value: 'true' },
      { node: 'data-1', host: d1.ip, ip: d1.ip, attr: 'temp', value: 'hot' },
    ],
  );
});

t.test('_cat/shards: p/r, states, null ip and node when unassigned', async (t) => {
  lab.store.putSettings('logs', { number_of_replicas: 2 });
  t.teardown(() => lab.store.putSettings('logs', { number_of_replicas: 1 }));
  const r = await get('/_cat/shards/logs', { format: 'json' });
  t.same(r.body.map((row: any) => row.prirep).sort(), ['p', 'r', 'r']);
  for (const row of r.body) {
    t.ok(['STARTED', 'INITIALIZING', 'RELOCATING', 'UNASSIGNED'].includes(row.state), row.state);
    if (row.state === 'UNASSIGNED') t.match(row, { ip: null, node: null });
    else t.match(row, { ip: /^127\./, node: /^data-/ });
  }
  t.equal(
    r.body.filter((row: any) => row.state === 'UNASSIGNED').length,
    1,
    'two up data nodes hold two of three copies',
  );
});
