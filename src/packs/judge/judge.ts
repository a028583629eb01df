/** A pack check over one cluster's gathered facts: scope, the source on each node, the matchers, across nodes, remedies. */
import semver from 'semver';
import type {
  Action,
  CheckResult,
  ClusterFacts,
  Finding,
  HostFacts,
  NodeView,
  PackCheck,
  PackSource,
} from '../../model/index.ts';
import { REDACTED } from '../../text/index.ts';
import { match } from './matchers.ts';
import { names, normal, same, type Verdict } from './verdict.ts';
import { clusterRemedy, nodeRemedy } from './remedy.ts';
import { isSecretSource, readSource } from '../read/sources-read.ts';
import type { Read, ReadContext } from '../read/values.ts';
import { FLEET_API, engineVersion } from '../read/sources-fleet.ts';
import { perCluster, sourceKind } from '../sources/registry.ts';
import { describeSource } from '../read/describe.ts';

/** The node's own running version when `_cat/nodes` was read for it (a half-done upgrade differs by node). */
const nodeVersion = (ctx: ReadContext): string | undefined => {
  const r = ctx.host && ctx.api.packReads?.[FLEET_API.versions] ? engineVersion(ctx) : undefined;
  return r?.ok ? (r.value as string) : undefined;
};

export interface JudgeOptions {
  /** The clock of `days_left`. */
  now: Date;
}

/** One node (or the cluster) a check looks at. */
interface Unit {
  host: HostFacts | null;
  node?: NodeView;
  label: string;
}

/** The hosts a node check can look at: engine nodes for engine sources, web hosts for the dashboards' settings. */
function units(c: PackCheck, f: ClusterFacts): Unit[] {
  if (c.each === 'cluster') return [{ host: null, label: `cluster ${f.name}` }];
  const web = sourceKind(c.read.kind).web === true;
  return f.hosts
    .map((h): Unit => {
      const node = f.nodes.find((n) => n.host === h.host);
      return {
        host: h,
        ...(node ? { node } : {}),
        label: node && node.name !== h.host ? `${node.name} (host ${h.host})` : h.host,
      };
    })
    .filter(({ host: h, node }) =>
      web ? h!.isWeb : node !== undefined || (h!.reachable ? h!.engineYml !== null : !h!.isWeb),
    );
}

/** undefined: in scope; false: not in scope; a string: why scope cannot be decided. */
function outOfScope(c: PackCheck, u: Unit): false | string | undefined {
  const s = c.scope;
  if (s?.groups && u.host && !s.groups.some((g) => u.host!.config.groups?.includes(g))) return false;
  if (s?.roles && u.host) {
    if (!u.node) return `its running roles are unknown (${u.host.host} is not among the cluster's nodes)`;
    if (!s.roles.some((r) => u.node!.roles.includes(r))) return false;
  }
  return undefined;
}

/** A cluster check's scope: the cluster is in scope when one of its nodes is (`scope`, and a `when:` read on nodes). */
function clusterScope(c: PackCheck, f: ClusterFacts, o: JudgeOptions): false | string | undefined {
  const nodeWhen = c.when !== undefined && !perCluster(c.when.read);
  if (!c.scope?.roles && !c.scope?.groups && !nodeWhen) return undefined;
  let why: string | undefined;
  for (const u of units({ ...c, each: 'node' }, f)) {
    const out = outOfScope(c, u);
    if (out === false) continue;
    if (typeof out === 'string') {
      why ??= `${u.label}: ${out}`;
      continue;
    }
    const w = nodeWhen ? when(c, f, u, o) : true;
    if (w === true) return undefined;
    if (typeof w === 'string') why ??= `${u.label}: ${w}`;
  }
  return why ?? false;
}

/** The check's verdict on one unit: every matcher but the cross-node one. */
function judgeUnit(c: PackCheck, f: ClusterFacts, u: Unit, o: JudgeOptions): { read: Read; verdicts: Verdict[] } {
  const ctx = { host: u.host, api: f.api, now: o.now, nodes: f.nodes };
  const read = readSource(c.read, ctx);
  if (!read.ok) return { read, verdicts: [] };
  const mc = {
    other: (s: PackSource) => readSource(s, ctx),
    memory: () => readSource({ kind: 'memory' }, ctx),
    nodes: f.nodes,
    ...(f.api.packReads?.[FLEET_API.settings] ? { clusterSettings: f.api.packReads[FLEET_API.settings] } : {}),
    ...((nodeVersion(ctx) ?? f.api.version) ? { engineVersion: nodeVersion(ctx) ?? f.api.version } : {}),
  };
  return { read, verdicts: c.expect.map((m) => match(m, read.value, mc, read.absent)) };
}

/** `when:` holds on the unit (judged there), does not (not in scope), or cannot be decided. */
function when(c: PackCheck, f: ClusterFacts, u: Unit, o: JudgeOptions): boolean | string {
  if (!c.when) return true;
  const j = judgeUnit({ ...c, read: c.when.read, expect: c.when.expect }, f, u, o);
  if (!j.read.ok) return j.read.error;
  const err = j.verdicts.find((v): v is { error: string } => 'error' in v);
  return err ? err.error : j.verdicts.every((v) => 'holds' in v && v.holds);
}

/** The odd ones out across the units that were read: those outside the largest group of equal values (all on a tie). */
function oddOnes(values: Array<{ u: Unit; v: unknown }>): Map<Unit, string> {
  const groups = new Map<string, Unit[]>();
  for (const { u, v } of values) {
    const k = JSON.stringify(normal(v) ?? null);
    groups.set(k, [...(groups.get(k) ?? []), u]);
  }
  const odd = new Map<Unit, string>();
  if (groups.size < 2) return odd;
  const sizes = [...groups.values()].map((g) => g.length);
  const top = Math.max(...sizes);
  const norm = sizes.filter((s) => s === top).length === 1 ? [...groups].find(([, g]) => g.length === top)! : null;
  for (const [k, g] of groups) {
    if (norm && k === norm[0]) continue;
    const others = norm ? `${norm[0]} on ${norm[1].map((x) => x.label).join(', ')}` : 'other values elsewhere';
    for (const u of g) odd.set(u, `differs from the other nodes: ${k} here, ${others}`);
  }
  return odd;
}

/** A list value without the items `same_on_nodes: {except}` names. */
function without(v: unknown, except: readonly unknown[] | undefined): unknown {
  if (!except || !Array.isArray(v)) return v;
  const left = names(v) ?? [];
  return v.filter((_, i) => !except.some((x) => same(left[i], x)));
}

export function judgeCheck(c: PackCheck, f: ClusterFacts, order: number, o: JudgeOptions): CheckResult {
  const base = {
    id: c.fullId as `${string}/${string}`,
    order,
    severity: c.severity,
    title: c.title,
    why: c.why,
    ...(c.docs ? { docs: c.docs } : {}),
  };
  const secret = isSecretSource(c.read);
  const findings: Finding[] = [];
  const failed: Unit[] = [];
  const undecided: string[] = [];
  if (c.scope?.engine) {
    if (!f.api.version)
      return {
        ...base,
        status: 'error',
        reason: "the cluster's engine version is unknown, so scope.engine cannot be judged",
        findings,
        actions: [],
      };
    if (!semver.satisfies(f.api.version, c.scope.engine))
      return {
        ...base,
        status: 'skip',
        reason: `not in scope: engine ${f.api.version} is outside ${c.scope.engine}`,
        findings,
        actions: [],
      };
  }
  const read: Array<{ u: Unit; v: unknown }> = [];
  const inScope: Unit[] = [];
  for (const u of units(c, f)) {
    const out = u.host ? outOfScope(c, u) : clusterScope(c, f, o);
    // a cluster check's `when:` read on nodes was judged by clusterScope
    const nodeWhen = !u.host && c.when !== undefined && !perCluster(c.when.read);
    const w = out === undefined && !nodeWhen ? when(c, f, u, o) : true;
    const cannot = typeof out === 'string' ? out : typeof w === 'string' ? w : undefined;
    if (out === false || w === false) continue;
    inScope.push(u);
    if (cannot) {
      undecided.push(`${u.label}: ${cannot}`);
      findings.push({ ...(u.host ? { host: u.host.host } : {}), kind: 'unverified', message: `${u.label}: ${cannot}` });
      continue;
    }
    const j = judgeUnit(c, f, u, o);
    if (!j.read.ok) {
      undecided.push(`${u.label}: ${j.read.error}`);
      findings.push({
        ...(u.host ? { host: u.host.host } : {}),
        kind: 'unverified',
        message: `${u.label}: ${j.read.error}`,
      });
      continue;
    }
    const value = secret && j.read.value !== undefined ? REDACTED : j.read.value;
    const errors = j.verdicts.filter((v): v is { error: string } => 'error' in v).map((v) => v.error);
    const whys = j.verdicts
      .filter((v): v is { holds: false; why: string } => 'holds' in v && !v.holds)
      .map((v) => v.why);
    if (whys.length) {
      failed.push(u);
      // a secret's value never reaches a message: the matcher's words would carry it
      const why = secret ? 'does not meet the check' : whys.join('; ');
      findings.push({
        ...(u.host ? { host: u.host.host } : {}),
        message: `${u.label}: ${describeSource(c.read)} ${why}`,
        evidence: { value },
      });
    } else if (errors.length) {
      undecided.push(`${u.label}: ${errors.join('; ')}`);
      findings.push({
        ...(u.host ? { host: u.host.host } : {}),
        kind: 'unverified',
        message: `${u.label}: ${errors.join('; ')}`,
      });
    } else read.push({ u, v: j.read.value });
  }
  const across = c.expect.find((m) => m.kind === 'same_on_nodes');
  if (across)
    for (const [u, why] of oddOnes(read.map(({ u, v }) => ({ u, v: without(v, across.except) })))) {
      failed.push(u);
      findings.push({
        ...(u.host ? { host: u.host.host } : {}),
        message: `${u.label}: ${describeSource(c.read)} ${secret ? 'differs from the other nodes' : why}`,
        evidence: { value: secret ? REDACTED : (without(read.find((r) => r.u === u)?.v, across.except) ?? null) },
      });
    }
  const actions = failed.length ? plan(c, failed, findings, undecided) : [];
  if (failed.length) {
    const extra = undecided.length ? `; not decided: ${undecided.join('; ')}` : '';
    return {
      ...base,
      status: 'fail',
      reason: `${failed.length} of ${inScope.length} in scope: ${failed.map((u) => u.label).join(', ')}${extra}`,
      findings,
      actions,
    };
  }
  if (undecided.length)
    return { ...base, status: 'error', reason: `could not be decided: ${undecided.join('; ')}`, findings, actions };
  if (!inScope.length) return { ...base, status: 'skip', reason: 'no node in scope', findings, actions };
  return {
    ...base,
    status: 'pass',
    reason: `holds on ${inScope.length === 1 && c.each === 'cluster' ? 'the cluster' : `${inScope.length} node(s) in scope`}`,
    findings,
    actions,
  };
}

/** The remedy of the failed units; what cannot be planned is said, never half-planned. */
function plan(c: PackCheck, failed: Unit[], findings: Finding[], undecided: string[]): Action[] {
  if (!c.remedy) return [];
  const cluster = clusterRemedy(c.remedy);
  if (cluster) return [cluster];
  const actions: Action[] = [];
  for (const u of failed) {
    if (!u.host) continue;
    const p = nodeRemedy(c.remedy, u.host);
    if (!p) continue;
    if ('refused' in p) {
      findings.push({
        host: u.host.host,
        kind: 'note',
        message: `the remedy is not planned on ${u.label}: ${p.refused}`,
      });
      undecided.push(`${u.label}: remedy not planned`);
    } else actions.push(...p.actions);
  }
  return actions;
}
