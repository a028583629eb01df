/** The cluster's REST facts: the version (GET /), then ten reads at once in that line's terms. */
import { LEASE_PATH } from '../facts/lease-note.ts';
import { errText } from '../base/errors.ts';
import type { ClusterApi } from '../cluster/types.ts';
import { catNodesWithManager, engineLine } from '../cluster/engine-line.ts';
import { apiRequest, requestKey } from '../packs/index.ts';
import { deniedText } from '../cluster/denied.ts';
import {
  CatRows,
  ClusterSettings,
  DocAnswer,
  errorOf,
  HealthAnswer,
  SettingsAnswer,
  shaped,
} from '../cluster/shapes.ts';
import { LIMITS_INDEX, type ApiAnswer, type ApiFacts, type CatRow } from '../model/index.ts';

export const emptyApiFacts = (reachable: boolean, error?: string): ApiFacts => ({
  reachable,
  ...(error ? { error } : {}),
  nodes: [],
  nodeattrs: [],
  plugins: [],
  limitsShards: [],
});

/** A `_cat` answer as rows; an error status (a 404 of a missing index) is no rows plus a note of why; a 200 of another shape throws. */
function rows(a: ApiAnswer, what: string, problems: Map<string, string[]>): CatRow[] {
  if (a.statusCode === 200) return shaped(CatRows, a.body, what);
  if (a.statusCode !== 404) {
    const e = errorOf(a.body);
    const type = typeof e === 'object' ? e.type : undefined;
    // no elected manager is the cluster's state, not a failure of smdoctor's: named as such
    const why =
      type === 'cluster_manager_not_discovered_exception' || type === 'master_not_discovered_exception'
        ? ` ${type} (no cluster manager is elected)`
        : typeof type === 'string'
          ? ` ${type}`
          : '';
    const answer = deniedText(a.statusCode, a.body) ?? `${a.statusCode}${why}`;
    problems.set(answer, [...(problems.get(answer) ?? []), what]);
  }
  return [];
}

/** `GET /_cat/nodes and GET /_cat/plugins answered 401 …`: one refusal said once, with every request it met. */
const said = (problems: Map<string, string[]>): string =>
  [...problems].map(([answer, whats]) => `${whats.join(' and ')} answered ${answer}`).join('; ');

/** A 200 answer must have the shape its readers expect; error statuses are judged by the checks. */
function checkShape(a: ApiAnswer, schema: Parameters<typeof shaped>[0], what: string): ApiAnswer {
  if (a.statusCode === 200) shaped(schema, a.body, what);
  return a;
}

/**
 * The facts last made from each cluster's answers, by its node list's body: serve's kept client gives the very same
 * (frozen) body objects for unchanged bytes, so an unchanged cluster's facts are the same object, made once.
 */
const made = new WeakMap<object, { answers: unknown[]; facts: ApiFacts }>();

export async function gatherApi(api: ClusterApi, packPaths: ReadonlySet<string> = new Set()): Promise<ApiFacts> {
  const get = (path: string, querystring?: Record<string, string>): Promise<ApiAnswer> =>
    api.request({ method: 'GET', path, ...(querystring ? { querystring } : {}) });
  const json = { format: 'json' };
  try {
    // the packs' GETs join the same batch of reads, each request once however spelled, none that audit makes anyway;
    // GET only, never a body
    const own = new Set(['/_cluster/health', '/_cluster/settings?flat_settings=true']);
    const wanted = new Map([...packPaths].map((p) => [requestKey(p), p]));
    const packReads = Promise.all(
      [...wanted]
        .filter(([key]) => !own.has(key))
        .map(async ([key, p]): Promise<[string, ApiAnswer]> => {
          const answer = await api
            .request({ method: 'GET', ...apiRequest(p) })
            .catch((err: unknown) => ({ statusCode: 0, body: { error: { reason: errText(err) } } }));
          return [key, answer];
        }),
    );
    const [nodes, nodeattrs, plugins, endpoint, doc, settings, shards, health, clusterSettings, lease] =
      await Promise.all([
        catNodesWithManager(api, ['ip', 'name', 'node.roles']),
        get('/_cat/nodeattrs', json),
        get('/_cat/plugins', json),
        get('/_core/limits_user/base_limit'),
        get(`/${LIMITS_INDEX}/_doc/base_limit`),
        get(`/${LIMITS_INDEX}/_settings`),
        get(`/_cat/shards/${LIMITS_INDEX}`, json),
        get('/_cluster/health'),
        get('/_cluster/settings', { flat_settings: 'true' }),
        get(LEASE_PATH),
      ]);
    const line = await engineLine(api).catch(() => undefined);
    const reads = packPaths.size ? await packReads : [];
    const answers = [nodes, nodeattrs, plugins, endpoint, doc, settings, shards, health, clusterSettings, lease]
      .flatMap((a) => [a.statusCode, a.body])
      .concat(
        reads.flatMap(([k, a]) => [k, a.statusCode, a.body]),
        line?.number,
      );
    const had = typeof nodes.body === 'object' && nodes.body ? made.get(nodes.body) : undefined;
    if (had && had.answers.length === answers.length && had.answers.every((x, i) => x === answers[i])) return had.facts;
    const facts = factsOf();
    if (typeof nodes.body === 'object' && nodes.body) made.set(nodes.body, { answers, facts });
    return facts;

    function factsOf(): ApiFacts {
      const problems = new Map<string, string[]>();
      const facts: ApiFacts = {
        reachable: true,
        nodes: rows(nodes, 'GET /_cat/nodes', problems),
        nodeattrs: rows(nodeattrs, 'GET /_cat/nodeattrs', problems),
        plugins: rows(plugins, 'GET /_cat/plugins', problems),
        baseLimitEndpoint: endpoint,
        baseLimitDoc: checkShape(doc, DocAnswer, `GET /${LIMITS_INDEX}/_doc/base_limit`),
        limitsSettings: checkShape(settings, SettingsAnswer, `GET /${LIMITS_INDEX}/_settings`),
        limitsShards: rows(shards, `GET /_cat/shards/${LIMITS_INDEX}`, problems),
        health: checkShape(health, HealthAnswer, 'GET /_cluster/health'),
        clusterSettings: checkShape(clusterSettings, ClusterSettings, 'GET /_cluster/settings'),
        lease: checkShape(lease, DocAnswer, `GET ${LEASE_PATH}`),
      };
      if (packPaths.size) {
        const answers = new Map<string, ApiAnswer>([
          ['/_cluster/health', health],
          ['/_cluster/settings?flat_settings=true', clusterSettings],
          ...reads,
        ]);
        facts.packReads = Object.fromEntries([...packPaths].map((p) => [p, answers.get(requestKey(p))!]));
      }
      if (line && line.number !== 'unknown') facts.version = line.number;
      const name =
        health.statusCode === 200 ? shaped(HealthAnswer, health.body, 'GET /_cluster/health').cluster_name : undefined;
      if (name !== undefined) facts.clusterName = name;
      // without the node list nothing can be correlated: the API counts as failed
      if (nodes.statusCode !== 200) {
        facts.reachable = false;
        facts.error = said(problems) || 'GET /_cat/nodes gave no rows';
      } else if (problems.size) facts.error = said(problems);
      return facts;
    }
  } catch (err) {
    // a malformed answer fails this cluster's API checks with its reason; other clusters are gathered apart
    return emptyApiFacts(false, errText(err));
  }
}
