/** `api: {path: PATH, pick: DOTTED.PATH}`: a GET of the cluster's REST API, the value at `pick`; per node with `each_node`. */
import * as v from 'valibot';
import { errText } from '../../base/errors.ts';
import { answerObject, shaped } from '../../cluster/shapes.ts';
import type { ApiAnswer, NodeView } from '../../model/index.ts';
import { apiRequest } from '../read/sources.ts';
import { pickPath, pickProblem } from '../read/pick.ts';
import { err, ok, type Read, type ReadContext } from '../read/values.ts';
import type { SourceKind, SourceOf } from './kind.ts';

// an API path: no scheme, no host, no fragment, no whitespace; a query string is allowed
const API_PATH_RE = /^\/?[A-Za-z0-9_*,.-][A-Za-z0-9_*,.\-/]*(\?[A-Za-z0-9_.,=&*%-]*)?$/;
const PICK_RE = /^[^.\s]+(\.[^.\s]+)*$/;

const addr = v.optional(v.string());
/** A node-keyed answer (`_nodes`, `_nodes/stats/…`): each node's entry, with what names it. */
const NodeKeyed = answerObject({
  nodes: v.record(v.string(), answerObject({ name: addr, ip: addr, host: addr, transport_address: addr })),
});

/** The entry of a node-keyed answer (`nodes.<id>`) that is this node: by name, else by its one address. */
function nodeEntry(body: unknown, node: NodeView, what: string): { entry: unknown } | { error: string } {
  let nodes;
  try {
    nodes = Object.values(shaped(NodeKeyed, body, what).nodes);
  } catch (e) {
    return { error: errText(e) };
  }
  const address = (a: string | undefined) => a !== undefined && [node.ip, node.host].includes(a.replace(/:\d+$/, ''));
  const byAddress = nodes.filter((e) => address(e.ip) || address(e.host) || address(e.transport_address));
  const hit = nodes.find((e) => e.name === node.name) ?? (byAddress.length === 1 ? byAddress[0] : undefined);
  return hit ? { entry: hit } : { error: `${what} has no entry under nodes for ${node.name}` };
}

function perNode(s: SourceOf<'api'>, a: ApiAnswer, c: ReadContext): Read {
  const node = c.host ? c.nodes?.find((n) => n.host === c.host!.host) : undefined;
  if (!node) return err(`${c.host?.host ?? 'the host'} is not among the cluster's running nodes`);
  const e = nodeEntry(a.body, node, `GET ${apiRequest(s.path).path}`);
  if ('error' in e) return err(e.error);
  const p = pickPath(e.entry, s.pick, s.allowEmpty);
  return p.found ? ok(p.value) : err(`${pickProblem(s.pick, p)} (node ${node.name})`);
}

export const api: SourceKind<'api'> = {
  doc: {
    write: '`api: {path: PATH, pick: DOTTED.PATH}`',
    value:
      "a GET of the cluster's REST API (no body; `each: cluster`): the value at `pick` (`a.b.0.c`; `*` maps over a list); with `each_node: true`, a node-keyed answer's (`nodes.<id>.…`) value for each node (`each: node`)",
  },
  shape: v.strictObject({
    path: v.pipe(
      v.string(),
      v.regex(new RegExp(`^(?!(.*[/?])?\\.\\.([/?]|$))${API_PATH_RE.source.slice(1)}`)),
      v.description('a GET of the REST API (each: cluster)'),
    ),
    pick: v.pipe(v.string(), v.regex(PICK_RE), v.description('a dotted path; * maps over a list')),
    allow_empty: v.optional(v.pipe(v.literal(true), v.description('* over an empty list is [], not an error'))),
    each_node: v.optional(
      v.pipe(v.literal(true), v.description('a node-keyed answer (nodes.<id>.…): one value per node (each: node)')),
    ),
  }),
  object: true,
  cluster: (s) => !s.eachNode,
  load: (r, at, x) => {
    const keys = ['path', 'pick', 'allow_empty', 'each_node'];
    const o = r.map(at, x, 'api', keys, ['path', 'pick']);
    if (!o) return undefined;
    const path = r.str([...at, 'path'], o.path, 'api path', {
      re: API_PATH_RE,
      form: 'a path of the REST API (_cluster/settings)',
    });
    if (path?.split(/[/?]/).includes('..')) return r.bad([...at, 'path'], `api path ${JSON.stringify(path)} holds ..`);
    const p = r.str([...at, 'pick'], o.pick, 'api pick', {
      re: PICK_RE,
      form: 'a dotted path (a.b.0.c, * over a list)',
    });
    const allowEmpty = 'allow_empty' in o ? r.isTrue([...at, 'allow_empty'], o.allow_empty, 'allow_empty') : undefined;
    const eachNode = 'each_node' in o ? r.isTrue([...at, 'each_node'], o.each_node, 'each_node') : undefined;
    if (path === undefined || p === undefined || ('allow_empty' in o && !allowEmpty) || ('each_node' in o && !eachNode))
      return undefined;
    return {
      kind: 'api',
      path,
      pick: p,
      ...(allowEmpty ? { allowEmpty } : {}),
      ...(eachNode ? { eachNode } : {}),
    };
  },
  needs: (s, n) => void n.apiPaths.add(s.path),
  read: (s, c) => {
    const a = c.api.packReads?.[s.path];
    if (!a) return err(`GET ${apiRequest(s.path).path} was not read${c.api.error ? `: ${c.api.error}` : ''}`);
    if (a.statusCode !== 200) return err(`GET ${apiRequest(s.path).path} answered ${a.statusCode || 'nothing'}`);
    if (s.eachNode) return perNode(s, a, c);
    const p = pickPath(a.body, s.pick, s.allowEmpty);
    return p.found ? ok(p.value) : err(pickProblem(s.pick, p));
  },
};
