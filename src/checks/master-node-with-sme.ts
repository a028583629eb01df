/** Check 2: `node.attr.node_with_sme` must not be true on a master node. */
import { sha256 } from '../base/hash.ts';
import { checkOrder, type Check, type ClusterFacts, type NodeView } from '../model/index.ts';
import { fileBytes, readKey, setScalar, unifiedDiff } from '../yamledit/index.ts';
import { engineFile, fileIsMaster } from './node-file.ts';
import {
  describeNode,
  errorResult,
  finish,
  hostFacts,
  isTrue,
  refusedEdit,
  restartAction,
  tally,
  unreadable,
  type Tally,
} from './util.ts';

const KEY = 'node.attr.node_with_sme';

/** The attribute as the running node loaded it (`_cat/nodeattrs`). */
function runningSme(facts: ClusterFacts, n: NodeView): boolean {
  return facts.api.nodeattrs.some((r) => r.node === n.name && r.attr === 'node_with_sme' && r.value === 'true');
}

function checkNode(facts: ClusterFacts, n: NodeView, t: Tally): void {
  const running = runningSme(facts, n);
  const h = hostFacts(facts, n.host);
  const cannot = unreadable(h, n);
  const file = h && !cannot ? engineFile(h) : null;
  if (!h || !file || 'why' in file) {
    const why = file && 'why' in file ? file.why : (cannot ?? '');
    if (n.isMaster && running) {
      t.findings.push({
        host: n.host,
        message: `master ${describeNode(n)} runs with node_with_sme=true; fix it by hand: ${why}`,
        evidence: { node: n.name, nodeattr: 'node_with_sme=true' },
      });
      t.failed.push(`master ${n.name} runs with node_with_sme=true`);
    } else if (n.isMaster) {
      t.findings.push({
        host: n.host,
        kind: 'unverified',
        message: `${KEY} of master ${describeNode(n)} cannot be checked: ${why}`,
      });
      t.undecided.push(`master ${n.name}: ${why}`);
    }
    return;
  }
  const roles = fileIsMaster(file.parsed, h.engineEnv);
  // unknown from the file (a placeholder, the engine's environment unread): judged from the running node
  if (roles.master !== null && roles.master !== n.isMaster) {
    t.findings.push({
      host: h.host,
      kind: 'restart-pending',
      message: `${describeNode(n)} runs ${n.isMaster ? 'as' : 'not as'} a master but ${file.file.path} says ${roles.because}: a restart is pending`,
      evidence: { path: file.file.path, line: roles.line ?? null, running_roles: n.roles },
    });
  }
  // A node the file makes master after its next restart counts as a master here too.
  if (!n.isMaster && !roles.master) return;
  const sme = readKey(file.parsed, KEY).found;
  if (sme && isTrue(sme.value)) {
    const edit = file.file.refused ? refusedEdit(file.file.refused) : setScalar(file.file.text, KEY, false);
    if (!edit.ok) {
      t.findings.push({
        host: h.host,
        kind: 'unverified',
        message: `${file.file.path}: cannot edit ${KEY}: ${edit.errors[0]?.message}`,
      });
      t.undecided.push(`${h.host}: ${file.file.path} cannot be edited`);
      return;
    }
    t.findings.push({
      host: h.host,
      message: `${KEY} is ${JSON.stringify(sme.value)} on master ${describeNode(n)}`,
      evidence: { path: file.file.path, line: sme.line, value: sme.value },
    });
    t.actions.push({
      type: 'set-yaml',
      host: h.host,
      path: file.file.path,
      key: KEY,
      value: false,
      diff: unifiedDiff(file.file.path, file.file.text, edit.text),
      base_sha256: sha256(fileBytes(file.file)),
      status: 'planned',
    });
    t.actions.push(restartAction(h, h.config.engine));
    t.failed.push(`${KEY} is true on master ${n.name}`);
  } else if (running && n.isMaster) {
    t.findings.push({
      host: h.host,
      kind: 'restart-pending',
      message: `master ${describeNode(n)} still runs with node_with_sme=true though ${file.file.path} says ${sme ? JSON.stringify(sme.value) : 'nothing'}: a restart is pending`,
      evidence: {
        path: file.file.path,
        line: sme?.line ?? null,
        value: sme?.value ?? null,
        nodeattr: 'node_with_sme=true',
      },
    });
    t.actions.push(restartAction(h, h.config.engine));
    t.failed.push(`master ${n.name} still runs with node_with_sme=true`);
  }
}

function run(facts: ClusterFacts) {
  if (facts.nodes.length === 0) {
    return errorResult(
      'master-node-with-sme',
      `no running nodes are known, so master nodes cannot be told apart${facts.api.error ? `: ${facts.api.error}` : ''}`,
    );
  }
  const t = tally();
  for (const n of facts.nodes) checkNode(facts, n, t);
  const masters = facts.nodes.filter((n) => n.isMaster).map((n) => n.name);
  return finish('master-node-with-sme', t, `${KEY} is not true on any master node (${masters.join(', ') || 'none'})`);
}

export const masterNodeWithSme: Check = {
  id: 'master-node-with-sme',
  order: checkOrder('master-node-with-sme'),
  troubleshootingRow:
    '| 2 | Search-engine configuration file `{SEARCH_HOME}/config/<engine>.yml` on master nodes | parameter `node.attr.node_with_sme` is `true` on a master node (the node then counts as a participant of the `sme-re` plugin and may receive requests that it cannot execute) | set it to `false` on master nodes; restart the search-engine service on the master node (`systemctl restart <engine>`) |',
  run,
};
