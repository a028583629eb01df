/** What a reviewer approves: the plan's actions and pins in a canonical form, and the sha256 of it. Pure. */
import type { Action, ClusterReport, Report } from '../model/index.ts';
import { sha256 } from '../base/hash.ts';
import { stringifyJson } from '../base/json-text.ts';

/** JSON with every object's keys sorted: the same data always gives the same text (a BigInt as its exact digits). */
export const canonical = (v: unknown): string =>
  stringifyJson(v, undefined, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );

/** One of a cluster's actions with whose it is: the cluster's own (`cluster`) or a check's id. */
export interface OwnedAction {
  owner: string;
  action: Action;
}

/** Every action of a cluster in run order (its own first, then the checks' in order), whatever its status. */
export function ownedActions(clusterReport: ClusterReport): OwnedAction[] {
  return [
    ...(clusterReport.actions ?? []).map((action) => ({ owner: 'cluster', action })),
    ...clusterReport.checks.flatMap((k) => k.actions.map((action) => ({ owner: k.id, action }))),
  ];
}

/** The approved part of a plan: per cluster, its URL, pins and actions. */
export function digestInput(plan: Pick<Report, 'clusters'>): unknown {
  return {
    digest: 'smdoctor-plan/1',
    clusters: plan.clusters.map((c) => ({
      api_url: c.api_url,
      pins: c.pins ?? null,
      actions: ownedActions(c).map((o) => ({ owner: o.owner, ...o.action })),
    })),
  };
}

/** `sha256:<hex>` of the canonical form of the plan's actions and pins. */
export function planDigest(plan: Pick<Report, 'clusters'>): string {
  return `sha256:${sha256(canonical(digestInput(plan)))}`;
}

/** A digest as a user may type it: with or without the `sha256:` prefix, any case. */
export function sameDigest(given: string, digest: string): boolean {
  const norm = (d: string): string =>
    d
      .trim()
      .toLowerCase()
      .replace(/^sha256:/, '');
  return norm(given) === norm(digest);
}
