/** Small helpers shared by the five checks: host lookup, role tests, exact remote commands, results. */
import { shWord } from '../transport/command.ts';
import { isDataRole } from '../facts/roles.ts';
import type { EditResult } from '../yamledit/index.ts';
import {
  checkOrder,
  type Action,
  type CheckId,
  type CheckResult,
  type ClusterFacts,
  type Finding,
  type HostFacts,
  type NodeView,
} from '../model/index.ts';

export function hostFacts(facts: ClusterFacts, host: string | undefined): HostFacts | undefined {
  return host === undefined ? undefined : facts.hosts.find((h) => h.host === host);
}

export function isDataNode(n: NodeView): boolean {
  return n.roles.some(isDataRole);
}

export function describeNode(n: NodeView): string {
  return n.host && n.host !== n.name ? `${n.name} (${n.ip}, host ${n.host})` : `${n.name} (${n.ip})`;
}

/** `ansible_become` runs privileged commands with `sudo -n` (never prompts). */
export function privileged(h: HostFacts, command: string): string {
  return h.config.become && !/^sudo\s/.test(command) ? `sudo -n ${command}` : command;
}

/** The host's restart_command (the operator's own shell text) with `{service}` filled in, as fix will run it. */
export function restartAction(h: HostFacts, service: string): Action {
  const command = privileged(h, h.config.restartCommand.replaceAll('{service}', shWord(service)));
  return { type: 'restart-service', host: h.host, service, command, status: 'planned' };
}

/** Why a host's files cannot be read, or null when they can. */
export function unreadable(h: HostFacts | undefined, node?: NodeView): string | null {
  if (node && !node.host) return `${describeNode(node)} is not in the inventory, so its files cannot be read`;
  if (!h) return `host ${node?.host ?? '?'} has no gathered facts`;
  if (!h.reachable) return `host ${h.host} is unreachable${h.error ? `: ${h.error}` : ''}`;
  return null;
}

export interface Tally {
  findings: Finding[];
  actions: Action[];
  /** The check's condition was seen (the check fails even when no action can be planned). */
  failed: string[];
  /** What could not be decided. */
  undecided: string[];
}

export function tally(): Tally {
  return { findings: [], actions: [], failed: [], undecided: [] };
}

/** fail when anything failed; error when something could not be decided and nothing failed; else pass. */
export function finish(id: CheckId, t: Tally, passReason: string): CheckResult {
  const base = { id, order: checkOrder(id), findings: t.findings, actions: t.actions };
  if (t.failed.length > 0) {
    const extra = t.undecided.length > 0 ? `; not decided: ${t.undecided.join('; ')}` : '';
    return { ...base, status: 'fail', reason: t.failed.join('; ') + extra };
  }
  if (t.undecided.length > 0)
    return { ...base, status: 'error', reason: `could not be decided: ${t.undecided.join('; ')}` };
  return { ...base, status: 'pass', reason: passReason };
}

export function errorResult(id: CheckId, reason: string, findings: Finding[] = []): CheckResult {
  return { id, order: checkOrder(id), status: 'error', reason, findings, actions: [] };
}

/** The API must have answered for API-based checks. */
export function apiDown(facts: ClusterFacts): string | null {
  if (facts.api.reachable) return null;
  // a malformed answer is not an outage: say what was read wrong
  const how = facts.api.error?.includes('answered an unexpected shape') ? 'could not be read' : 'is unreachable';
  return `the REST API at ${facts.apiUrl} ${how}${facts.api.error ? `: ${facts.api.error}` : ''}`;
}

export function isTrue(v: unknown): boolean {
  return v === true || v === 'true';
}

/** The edit of a file whose encoding makes a byte-exact edit impossible: refused, with the reason. */
export function refusedEdit(reason: string): EditResult {
  return {
    ok: false,
    text: '',
    changed: false,
    errors: [{ code: 'ENCODING', message: `it cannot be edited safely: ${reason}`, line: 1, col: 1 }],
  };
}
