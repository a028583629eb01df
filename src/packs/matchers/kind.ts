/**
 * What one matcher is, in one module: its shape (valibot, also schema/pack.json's), how the loader reads it, how it
 * judges a value, its line of docs/packs.md. matchers/registry.ts keys every kind of PackMatcher to its module.
 */
import type { GenericSchema } from 'valibot';
import type { PackMatcher, PackMatcherKind, PackSource } from '../../model/index.ts';
import type { MatchContext, Verdict } from '../judge/verdict.ts';
import type { Reader } from '../load/load-shape.ts';
import type { Path } from '../load/load-yaml.ts';
import type { PackNeeds } from '../read/sources.ts';

export type MatcherOf<K extends PackMatcherKind> = Extract<PackMatcher, { kind: K }>;

export interface MatcherKind<K extends PackMatcherKind> {
  /** docs/packs.md's row: how it is written, when it holds, and (`absent: 'judged'`) what an absent value gives. */
  doc: { write: string; holds: string; absent?: string };
  /** The value under `expect: {KIND: …}`. */
  shape: GenericSchema;
  load(r: Reader, at: Path, v: unknown): MatcherOf<K> | undefined;
  /**
   * An absent value (not set, file or match missing): `fails` for a matcher that asks for something, `holds` for one
   * that asks for its absence, `judged` when `judge` decides (it then gets `undefined`). docs/packs.md's table.
   */
  absent: 'fails' | 'holds' | 'judged';
  /** A matcher of one value: over a list value it holds when it holds for every item. */
  each?: true;
  /** The other sources it reads on the same node (`same_as`): read with the check's source. */
  sources?(m: MatcherOf<K>): PackSource[];
  /** What it needs read beyond its sources (API GETs, the node's memory). */
  needs?(m: MatcherOf<K>, n: PackNeeds): void;
  judge(m: MatcherOf<K>, v: unknown, c: MatchContext): Verdict;
}

export type MatcherRegistry = { readonly [K in PackMatcherKind]: MatcherKind<K> };
