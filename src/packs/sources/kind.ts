/**
 * What one source kind is, in one module: its shape (valibot, also schema/pack.json's), how the loader reads it, what
 * it adds to the batched host command and the REST reads, how its value is read, and its line of docs/packs.md.
 * sources/registry.ts keys every kind of PackSource to its module: a kind without one does not compile.
 */
import type { GenericSchema } from 'valibot';
import type { PackSource, PackSourceKind } from '../../model/index.ts';
import type { Reader } from '../load/load-shape.ts';
import type { Path } from '../load/load-yaml.ts';
import type { PackHostPlace, PackNeeds } from '../read/sources.ts';
import type { Read, ReadContext } from '../read/values.ts';

export type SourceOf<K extends PackSourceKind> = Extract<PackSource, { kind: K }>;
/** What the loader gives: the source without `field`, which the loader reads for every kind alike. */
export type Loaded<K extends PackSourceKind> = Omit<SourceOf<K>, 'field'>;

export interface SourceKind<K extends PackSourceKind> {
  /** docs/packs.md's row: how it is written, and the value it gives. */
  doc: { write: string; value: string };
  /** The value under `read: {KIND: …}`; absent for a bare source (`read: KIND`, or `{KIND: true}`). */
  shape?: GenericSchema;
  /** Reads that value with positioned problems (bare sources have none). */
  load?(r: Reader, at: Path, v: unknown): Loaded<K> | undefined;
  /** It gives an object (or a list of objects): `field:` picks one of its fields. */
  object?: true;
  /** Read from the cluster's API, never on a host: once per cluster (`each: cluster`) unless the function says not. */
  cluster?: true | ((s: SourceOf<K>) => boolean);
  /** Read on the hosts of the web application, not the engine's nodes. */
  web?: true;
  /** What it needs read: files, sysctls, API GETs… (`PackNeeds`), once for every check that names it. */
  needs?(s: SourceOf<K>, n: PackNeeds): void;
  /**
   * A host source with lines of its own in the batched command: `key` says what one source reads (a unit, a package, a
   * path), deduplicated over every check; `lines` reads all the keys at once (one program for all, never one per
   * check), each answered in a section tagged `tag(i)` for `keys[i]` (or tagged `tag(NAME)` for a part NAME of its own, `all`…), with the shell
   * helpers `sec TAG PATH` and `small TAG PATH` of gather-host.ts. `read` finds it with `hostRead(c, KIND, key)`.
   * Nothing a pack writes reaches the shell but single-quoted words (`shQuote`).
   */
  host?: {
    key(s: SourceOf<K>): string;
    lines(keys: readonly string[], place: PackHostPlace, tag: (i: number | string) => string): string[];
    /** Its lines call gather-host.ts's `under ROOT PATH` (a symlink out of the homes $HR, $WR, $CR is refused). */
    under?: true;
  };
  /** The value on one node (or of the cluster): `ok(undefined)` when absent. Host sources get a reachable host. */
  read(s: SourceOf<K>, c: ReadContext): Read;
}

export type SourceRegistry = { readonly [K in PackSourceKind]: SourceKind<K> };
