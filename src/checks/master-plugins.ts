/** Check 4: master nodes must not carry the job-scheduler/sigma plugins (nor their keystore entry). */
import {
  checkOrder,
  SM_PLUGINS,
  type Check,
  type ClusterFacts,
  type HostFacts,
  type NodeView,
} from '../model/index.ts';
import { shWord } from '../transport/command.ts';
import { engineTool, nodePaths } from '../facts/layout.ts';
import {
  describeNode,
  errorResult,
  finish,
  hostFacts,
  privileged,
  restartAction,
  tally,
  unreadable,
  type Tally,
} from './util.ts';

export const KEYSTORE_ENTRY = 'jobscheduler.email.pass';

/**
 * The folder as one shell word. Names the tool could misread never get here (refused at gather): `./name` would slip past
 * the tool's check for plugins that extend this one (it compares names), and `--` is not read the same by every version of its CLI.
 */
function removePlugin(h: HostFacts, folder: string, name: string) {
  return {
    type: 'remove-plugin' as const,
    host: h.host,
    value: name,
    command: privileged(h, `${engineTool(h.config, h.layout, 'plugin', shWord)} remove ${shWord(folder)}`),
    status: 'planned' as const,
  };
}

/** Exactly the vendor's documented command; no `sudo -u` when the SSH user already owns the keystore. */
export function keystoreRemoveCommand(h: HostFacts): string {
  const { engineUser, user } = h.config;
  const cmd = `${engineTool(h.config, h.layout, 'keystore', shWord)} remove ${KEYSTORE_ENTRY}`;
  return engineUser === user ? cmd : `sudo -u ${shWord(engineUser)} ${cmd}`;
}

function checkMaster(facts: ClusterFacts, n: NodeView, t: Tally): void {
  const running = facts.api.plugins
    .filter((r) => r.name === n.name && SM_PLUGINS.includes(r.component ?? ''))
    .map((r) => r.component as string);
  const h = hostFacts(facts, n.host);
  const cannot = unreadable(h, n);
  if (!h || cannot) {
    // _cat/plugins decides the check's condition; only the removal needs the host.
    if (running.length === 0) return;
    t.findings.push({
      host: n.host,
      message: `master ${describeNode(n)} runs ${running.join(', ')}; removal cannot be planned: ${cannot}`,
      evidence: { node: n.name, plugins: running },
    });
    t.failed.push(`master ${n.name} carries ${running.join(', ')}`);
    return;
  }
  const disk = h.plugins
    .filter((p) => SM_PLUGINS.includes(p.name))
    .sort((a, b) => SM_PLUGINS.indexOf(a.name) - SM_PLUGINS.indexOf(b.name));
  const onDisk = new Set(disk.map((p) => p.name));
  for (const name of SM_PLUGINS) {
    const path = `${nodePaths(h).plugins}/${disk.find((p) => p.name === name)?.folder ?? name}`;
    const evidence = { node: n.name, plugin: name, path, running: running.includes(name), on_disk: onDisk.has(name) };
    if (running.includes(name) && onDisk.has(name))
      t.findings.push({ host: h.host, message: `master ${describeNode(n)} carries ${name}`, evidence });
    else if (running.includes(name))
      t.findings.push({
        host: h.host,
        kind: 'restart-pending',
        message: `master ${describeNode(n)} still runs ${name}, already gone from ${nodePaths(h).plugins}: a restart is pending`,
        evidence,
      });
    else if (onDisk.has(name))
      t.findings.push({
        host: h.host,
        kind: 'restart-pending',
        message: `${name} is installed on master ${describeNode(n)} but not running: it loads at the next restart`,
        evidence,
      });
  }
  for (const p of disk) {
    if (p.refused === undefined) t.actions.push(removePlugin(h, p.folder, p.name));
    // a name a shell or the plugin tool could misread is never acted on: a person removes it
    else
      t.findings.push({
        host: h.host,
        kind: 'unverified',
        message: `plugin folder ${JSON.stringify(p.folder)} on master ${describeNode(n)} holds ${p.name}, but ${p.refused}: not removed, remove it by hand`,
        evidence: { node: n.name, plugin: p.name, folder: p.folder },
      });
  }
  const needsRestart = disk.length > 0 || running.length > 0;
  const listed = h.keystore?.includes(KEYSTORE_ENTRY) ?? false;
  // A keystore entry no installed plugin registers stops the node at its next start.
  if (listed || (h.keystore === null && needsRestart)) {
    t.actions.push({
      type: 'remove-keystore-entry',
      host: h.host,
      key: KEYSTORE_ENTRY,
      command: keystoreRemoveCommand(h),
      status: 'planned',
      ...(listed ? {} : { if_present: true }),
    });
    t.findings.push(
      listed
        ? {
            host: h.host,
            message: `the keystore of master ${describeNode(n)} holds ${KEYSTORE_ENTRY}`,
            evidence: { node: n.name, keystore_entry: KEYSTORE_ENTRY },
          }
        : {
            host: h.host,
            kind: 'note',
            message: `the keystore of ${h.host} was not listed: ${KEYSTORE_ENTRY} is removed if present`,
          },
    );
  }
  if (needsRestart) t.actions.push(restartAction(h, h.config.engine));
  if (needsRestart) t.failed.push(`master ${n.name} carries ${[...new Set([...running, ...onDisk])].join(', ')}`);
  else if (listed) t.failed.push(`the keystore of master ${n.name} holds ${KEYSTORE_ENTRY}`);
}

function run(facts: ClusterFacts) {
  if (!facts.api.reachable || facts.nodes.length === 0) {
    return errorResult(
      'master-plugins',
      `GET /_cat/plugins and /_cat/nodes could not be read${facts.api.error ? `: ${facts.api.error}` : ''}`,
    );
  }
  const t = tally();
  for (const n of facts.nodes.filter((m) => m.isMaster)) checkMaster(facts, n, t);
  return finish('master-plugins', t, `no master node carries ${SM_PLUGINS.join(', ')} or ${KEYSTORE_ENTRY}`);
}

export const masterPlugins: Check = {
  id: 'master-plugins',
  order: checkOrder('master-plugins'),
  troubleshootingRow:
    '| 4 | GET `/_cat/plugins` | master nodes have any of the plugins `sm-job-scheduler`, `sm-sigma`, `sm-job-scheduler-actions-incident`, `sm-job-scheduler-actions-mitre` | remove these plugins from master nodes; then remove the keystore entry `jobscheduler.email.pass` with `sudo -u <engine> {SEARCH_HOME}/bin/<engine>-keystore remove jobscheduler.email.pass`; then restart the search-engine service on the nodes where plugins were removed |',
  run,
};
