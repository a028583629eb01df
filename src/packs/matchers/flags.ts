/** The matchers written `NAME: true`: judged across nodes, or with what the cluster's API said. */
import { HOLDS, show, fails } from '../judge/verdict.ts';
import { trueShape } from '../load/forms.ts';
import { FLEET_API, seedsVerdict, watermarkVerdict } from '../read/sources-fleet.ts';
import type { MatcherKind } from './kind.ts';

export const sameOnNodes: MatcherKind<'same_on_nodes'> = {
  doc: { write: '`same_on_nodes: true`', holds: 'is the same on every node in scope of the cluster' },
  shape: trueShape,
  load: (r, at, v) => r.isTrue(at, v, 'same_on_nodes') && { kind: 'same_on_nodes' },
  // judged across the nodes in scope, by judge.ts
  judge: () => HOLDS,
};

export const pluginVersionsMatchEngine: MatcherKind<'plugin_versions_match_engine'> = {
  doc: {
    write: '`plugin_versions_match_engine: true`',
    holds: "(plugins) every plugin's `engine_version` is the node's running engine version",
  },
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
  },
  shape: trueShape,
  load: (r, at, v) => r.isTrue(at, v, 'seeds_are_cluster_managers') && { kind: 'seeds_are_cluster_managers' },
  judge: (_, v, c) => seedsVerdict(v, c.nodes),
};

export const belowHighWatermark: MatcherKind<'below_high_watermark'> = {
  doc: {
    write: '`below_high_watermark: true`',
    holds: "(`disk`) is below the cluster's effective high disk watermark",
  },
  shape: trueShape,
  load: (r, at, v) => r.isTrue(at, v, 'below_high_watermark') && { kind: 'below_high_watermark' },
  needs: (_, n) => void n.apiPaths.add(FLEET_API.settings),
  judge: (_, v, c) => watermarkVerdict(v, c.clusterSettings),
};
