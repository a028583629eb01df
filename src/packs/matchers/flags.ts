/** The matchers written `NAME: true`: judged across nodes, or with what the cluster's API said. */
import { HOLDS, show, fails } from '../judge/verdict.ts';
import * as v from 'valibot';
import { trueShape, valuesShape } from '../load/forms.ts';
import { FLEET_API, seedsVerdict, watermarkVerdict } from '../read/sources-fleet.ts';
import type { MatcherKind } from './kind.ts';

export const sameOnNodes: MatcherKind<'same_on_nodes'> = {
  doc: {
    write: '`same_on_nodes: true` (or `{except: [..]}`)',
    holds: 'is the same on every node in scope of the cluster (a list without the items `except` names)',
    absent: 'compared like a value (absent on one node, set on others: differs)',
  },
  absent: 'judged',
  shape: v.union([trueShape, v.strictObject({ except: valuesShape })]),
  load: (r, at, x) => {
    if (x === null || typeof x !== 'object' || Array.isArray(x))
      return r.isTrue(at, x, 'same_on_nodes') && { kind: 'same_on_nodes' };
    const o = r.map(at, x, 'same_on_nodes', ['except'], ['except']);
    const except = o && r.list([...at, 'except'], o.except, 'except', (ip, y) => r.scalar(ip, y, 'an item of except'));
    return except && { kind: 'same_on_nodes', except };
  },
  // judged across the nodes in scope, by judge.ts
  judge: () => HOLDS,
};

export const pluginVersionsMatchEngine: MatcherKind<'plugin_versions_match_engine'> = {
  doc: {
    write: '`plugin_versions_match_engine: true`',
    holds: "(plugins) every plugin's `engine_version` is the node's running engine version",
    absent: 'never absent (a list)',
  },
  absent: 'judged',
  shape: trueShape,
  load: (r, at, v) => r.isTrue(at, v, 'plugin_versions_match_engine') && { kind: 'plugin_versions_match_engine' },
  needs: (_, n) => void n.apiPaths.add(FLEET_API.versions),
  judge: (_, v, c) => {
    if (!c.engineVersion) return { error: "the cluster's engine version is unknown" };
    if (!Array.isArray(v)) return { error: `${show(v)} is not a list of plugins` };
    const odd = (v as Array<{ name?: unknown; engine_version?: unknown }>).filter(
      (p) => p.engine_version !== c.engineVersion,
    );
    return odd.length
      ? fails(
          `${odd.map((p) => `${String(p.name)} is built for ${show(p.engine_version ?? undefined)}`).join(', ')}; the engine runs ${c.engineVersion}`,
        )
      : HOLDS;
  },
};

export const seedsAreClusterManagers: MatcherKind<'seeds_are_cluster_managers'> = {
  doc: {
    write: '`seeds_are_cluster_managers: true`',
    holds: '(`discovery.seed_hosts`) names every manager-eligible node of the cluster, and only its nodes',
    absent: 'fails',
  },
  absent: 'judged',
  shape: trueShape,
  load: (r, at, v) => r.isTrue(at, v, 'seeds_are_cluster_managers') && { kind: 'seeds_are_cluster_managers' },
  judge: (_, v, c) => seedsVerdict(v, c.nodes),
};

export const belowHighWatermark: MatcherKind<'below_high_watermark'> = {
  doc: {
    write: '`below_high_watermark: true`',
    holds: "(`disk`) is below the cluster's effective high disk watermark",
    absent: 'error (the disk use is unknown)',
  },
  absent: 'judged',
  shape: trueShape,
  load: (r, at, v) => r.isTrue(at, v, 'below_high_watermark') && { kind: 'below_high_watermark' },
  needs: (_, n) => void n.apiPaths.add(FLEET_API.settings),
  judge: (_, v, c) => watermarkVerdict(v, c.clusterSettings),
};
