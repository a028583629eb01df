/**
 * Every matcher and its module. Adding a matcher: a module beside this one (see kind.ts, and CONTRIBUTING.md) and its
 * line here; its kind in model/pack.ts's PackMatcher. The order is the order the loader's messages list them in.
 */
import type { PackMatcher, PackMatcherKind } from '../../model/index.ts';
import type { MatcherKind, MatcherRegistry } from './kind.ts';
import { atLeast, atMost } from './at-least.ts';
import { atMostOfMemory } from './at-most-of-memory.ts';
import { contains, containsNoneOf, notContains } from './contains.ts';
import { containsAll } from './contains-all.ts';
import { empty } from './empty.ts';
import { equals, notEquals } from './equals.ts';
import { belowHighWatermark, pluginVersionsMatchEngine, sameOnNodes, seedsAreClusterManagers } from './flags.ts';
import { length } from './length.ts';
import { matches } from './matches.ts';
import { notMatches } from './not-matches.ts';
import { notNewerThan } from './not-newer-than.ts';
import { notOneOf, oneOf } from './one-of.ts';
import { present } from './present.ts';
import { sameAs } from './same-as.ts';

export const MATCHERS: MatcherRegistry = {
  equals,
  not_equals: notEquals,
  contains,
  not_contains: notContains,
  one_of: oneOf,
  not_one_of: notOneOf,
  contains_none_of: containsNoneOf,
  at_least: atLeast,
  at_most: atMost,
  same_as: sameAs,
  not_newer_than: notNewerThan,
  same_on_nodes: sameOnNodes,
  plugin_versions_match_engine: pluginVersionsMatchEngine,
  seeds_are_cluster_managers: seedsAreClusterManagers,
  below_high_watermark: belowHighWatermark,
  present,
  matches,
  at_most_of_memory: atMostOfMemory,
  not_matches: notMatches,
  contains_all: containsAll,
  length,
  empty,
};

export const MATCHER_KINDS = Object.keys(MATCHERS) as PackMatcherKind[];

/** One matcher's module, whatever its kind (the registry's type keeps kind and module together). */
export const matcherKind = (k: PackMatcherKind): MatcherKind<PackMatcherKind> =>
  MATCHERS[k] as MatcherKind<PackMatcherKind>;

/** The sources a matcher reads beside the check's own (`same_as`). */
export const matcherSources = (m: PackMatcher) => matcherKind(m.kind).sources?.(m) ?? [];
