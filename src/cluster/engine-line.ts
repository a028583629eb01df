/** Which OpenSearch release line a cluster runs (from `GET /`), and what of its API smdoctor reads differs per line. */
import { ApiError } from '../base/errors.ts';
import { CatRows, RootAnswer, shaped } from './shapes.ts';
import type { ApiResponse, ClusterApi } from './types.ts';

/** 1.3 names the elected manager's `_cat/nodes` column `master`; 2.x and 3.x name it `cluster_manager`. */
export type EngineLine = { line: '1.3' | '2.x' | '3.x'; number: string };

export const SUPPORTED_LINES = '1.3, 2.x and 3.x';

/** The line of a `GET /` body, or why smdoctor does not support it. */
export function lineOf(body: unknown): EngineLine | { unsupported: string } {
  let v;
  try {
    v = shaped(RootAnswer, body, 'GET /')?.version;
  } catch (err) {
    return { unsupported: (err as Error).message };
  }
  const number = v?.number;
  if (!number) return { unsupported: 'GET / gave no version.number' };
  if (v?.distribution !== 'opensearch') return { unsupported: `${number} is not an OpenSearch release` };
  const [major, minor] = number.split('.').map(Number);
  if (major === 1 && minor === 3) return { line: '1.3', number };
  if (major === 2) return { line: '2.x', number };
  if (major === 3) return { line: '3.x', number };
  return { unsupported: `OpenSearch ${number} is not supported` };
}

const known = new WeakMap<ClusterApi, Promise<EngineLine>>();

/** The cluster's line, read once per client; an unsupported line is an ApiError that says which lines are supported. */
export function engineLine(api: ClusterApi): Promise<EngineLine> {
  let p = known.get(api);
  if (!p) {
    p = api.request({ method: 'GET', path: '/' }).then((r) => {
      // a user without cluster:monitor/main cannot read it: the current line's API is the best guess
      if (r.statusCode !== 200) return { line: '2.x', number: 'unknown' } as EngineLine;
      const l = lineOf(r.body);
      if ('unsupported' in l)
        throw new ApiError(`${api.url}: ${l.unsupported}; smdoctor supports OpenSearch ${SUPPORTED_LINES}`);
      return l;
    });
    known.set(api, p);
  }
  return p;
}

// 1.3's `_cat/nodes` has no `node.roles` column: the `node.role` letters, spelled as 1.3 names its roles
const ROLE_OF_LETTER: Record<string, string> = { d: 'data', i: 'ingest', m: 'master', r: 'remote_cluster_client' };
const rolesOfLetters = (letters: string | null) =>
  letters === null || letters === '-'
    ? ''
    : [...letters]
        .map((l) => ROLE_OF_LETTER[l])
        .filter(Boolean)
        .sort()
        .join(',');

/** `GET _cat/nodes` in 2.x terms on every line: the elected manager as `cluster_manager`, roles as `node.roles`. */
export async function catNodesWithManager(api: ClusterApi, columns: string[]): Promise<ApiResponse> {
  const { line } = await engineLine(api);
  const old = line === '1.3';
  const asked = old ? columns.map((c) => (c === 'node.roles' ? 'node.role' : c)) : columns;
  const res = await api.request({
    method: 'GET',
    path: '/_cat/nodes',
    querystring: { format: 'json', h: [...asked, old ? 'master' : 'cluster_manager'].join(',') },
  });
  if (!old || res.statusCode !== 200) return res;
  const body = shaped(CatRows, res.body, 'GET /_cat/nodes').map((r) =>
    Object.fromEntries([
      ...columns.map((c) => [c, c === 'node.roles' ? rolesOfLetters(r['node.role'] ?? null) : (r[c] ?? null)]),
      ['cluster_manager', r.master ?? null],
    ]),
  );
  return { ...res, body };
}
