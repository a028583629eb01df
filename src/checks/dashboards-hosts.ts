/** Check 3: the web application's `<engine>.hosts` must list data nodes only, never masters. */
import { posText } from '../base/errors.ts';
import { sha256 } from '../base/hash.ts';
import {
  checkOrder,
  DEFAULT_ENGINE_HOSTS,
  type Check,
  type ClusterFacts,
  type HostFacts,
  type NodeView,
} from '../model/index.ts';
import { fileBytes, readKey, setList, unifiedDiff } from '../yamledit/index.ts';
import { parsedFile } from '../facts/yml.ts';
import { nodePaths } from '../facts/layout.ts';
import { resolveWebValue } from '../facts/web-placeholders.ts';
import { describeNode, finish, isDataNode, refusedEdit, restartAction, tally, unreadable, type Tally } from './util.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

/** The running node a URL points at: by node ip, node name, an inventory host's name or address; loopback is the web host itself. */
export function nodeForUrl(facts: ClusterFacts, url: string, web: HostFacts): NodeView | undefined {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
  const byIp = facts.nodes.find((n) => n.ip === hostname) ?? facts.nodes.find((n) => n.name === hostname);
  if (byIp) return byIp;
  const inv = facts.hosts.find((h) => h.host === hostname || h.config.address === hostname);
  if (inv) return facts.nodes.find((n) => n.host === inv.host);
  if (LOOPBACK.has(hostname)) return facts.nodes.find((n) => n.host === web.host);
  return undefined;
}

/** A URL from the environment as shown in a report: a password in it is blanked. */
function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

function checkWebHost(facts: ClusterFacts, hostFacts: HostFacts, t: Tally): void {
  const cannot = unreadable(hostFacts);
  if (cannot || !hostFacts.dashboardsYml) {
    const why = cannot ?? `${nodePaths(hostFacts).dashboardsYml} was not found on host ${hostFacts.host}`;
    t.findings.push({
      host: hostFacts.host,
      kind: 'unverified',
      message: `web application hosts cannot be checked: ${why}`,
    });
    t.undecided.push(why);
    return;
  }
  const file = hostFacts.dashboardsYml;
  const key = `${hostFacts.config.engine}.hosts`;
  const parsed = parsedFile(file).doc;
  const found = parsed.errors.length === 0 ? readKey(parsed, key).found : null;
  const err = parsed.errors[0];
  if (err) {
    t.findings.push({
      host: hostFacts.host,
      kind: 'unverified',
      message: `${posText({ file: file.path, line: err.line, col: err.col })}: cannot be parsed (${err.code}: ${err.message})`,
    });
    t.undecided.push(`${hostFacts.host}: ${file.path} cannot be parsed`);
    return;
  }
  const raw = found ? found.value : DEFAULT_ENGINE_HOSTS;
  const urls = (Array.isArray(raw) ? raw : [raw]).map((u) => String(u));
  const keep: string[] = [];
  const masters: string[] = [];
  const dropped: string[] = [];
  for (const url of urls) {
    // `${VAR}` is judged by what the web application reads; the entry is kept (and written back) as written
    const r = resolveWebValue(url, hostFacts.webEnv);
    if (r.state !== 'value') {
      keep.push(url);
      const why =
        r.state === 'unknown'
          ? `depends on the web application's environment (${r.names.join(', ')}), which could not be read`
          : r.message;
      t.findings.push({
        host: hostFacts.host,
        kind: 'unverified',
        message: `${key} entry ${url} ${why}: its node is unknown, not judged`,
        evidence: { path: file.path, line: found?.line ?? null, url, node: null, roles: null },
      });
      t.undecided.push(`${hostFacts.host}: ${key} entry ${url} cannot be resolved`);
      continue;
    }
    const n = nodeForUrl(facts, r.value, hostFacts);
    const shown = r.value === url ? url : `${url} (${withoutPassword(r.value)})`;
    const evidence = {
      path: file.path,
      line: found?.line ?? null,
      url: withoutPassword(r.value),
      node: n?.name ?? null,
      roles: n?.roles ?? null,
    };
    if (!n) {
      keep.push(url);
      t.findings.push({
        host: hostFacts.host,
        kind: 'note',
        message: `${key} entry ${shown} matches no running node: kept as it is`,
        evidence,
      });
    } else if (n.isMaster) {
      masters.push(url);
      t.findings.push({
        host: hostFacts.host,
        message: `${key} lists master ${describeNode(n)} as ${shown}${found ? '' : ' (the default, key absent)'}`,
        evidence,
      });
    } else if (isDataNode(n)) keep.push(url);
    else dropped.push(`${url} (${n.name} has no data role)`);
  }
  if (masters.length === 0) return;
  for (const d of dropped)
    t.findings.push({
      host: hostFacts.host,
      kind: 'note',
      message: `${key} entry ${d}: dropped, only data nodes are kept`,
    });
  if (keep.length === 0) {
    const data = facts.nodes.filter((n) => isDataNode(n) && !n.isMaster).map(describeNode);
    const hint = data.length > 0 ? `; data-only nodes: ${data.join(', ')}` : '; the cluster has no data-only node';
    t.findings.push({
      host: hostFacts.host,
      kind: 'unverified',
      message: `removing the masters from ${key} in ${file.path} would leave no host${hint}: edit it by hand`,
    });
    t.undecided.push(`${hostFacts.host}: ${key} lists only masters, and trimming would leave no host${hint}`);
    return;
  }
  const edit = file.refused ? refusedEdit(file.refused) : setList(file.text, key, keep);
  if (!edit.ok) {
    t.findings.push({
      host: hostFacts.host,
      kind: 'unverified',
      message: `${file.path}: cannot edit ${key}: ${edit.errors[0]?.message}`,
    });
    t.undecided.push(`${hostFacts.host}: ${file.path} cannot be edited`);
    return;
  }
  t.actions.push({
    type: 'set-hosts',
    host: hostFacts.host,
    path: file.path,
    key,
    value: keep,
    diff: unifiedDiff(file.path, file.text, edit.text),
    base_sha256: sha256(fileBytes(file)),
    status: 'planned',
  });
  t.actions.push(restartAction(hostFacts, `${hostFacts.config.engine}-dashboards`));
  t.failed.push(`${key} on ${hostFacts.host} lists master nodes (${masters.join(', ')})`);
}

function run(facts: ClusterFacts) {
  const t = tally();
  const web = facts.hosts.filter((h) => h.isWeb);
  if (facts.nodes.length === 0) {
    t.undecided.push(
      `no running nodes are known, so their roles cannot be checked${facts.api.error ? `: ${facts.api.error}` : ''}`,
    );
  } else for (const h of web) checkWebHost(facts, h, t);
  const reason =
    web.length === 0
      ? 'no web-application host in this cluster'
      : `no web-application host lists a master node (${web.map((h) => h.host).join(', ')})`;
  return finish('dashboards-hosts', t, reason);
}

export const dashboardsHosts: Check = {
  id: 'dashboards-hosts',
  order: checkOrder('dashboards-hosts'),
  troubleshootingRow:
    '| 3 | Web application configuration `{WEB_HOME}/config/<engine>_dashboards.yml`, parameter `<engine>.hosts` | the list contains nodes with the master role (check roles with GET `/_cat/nodes`) | list only nodes with the data role; restart the web service (`systemctl restart <engine>-dashboards`) |',
  run,
};
