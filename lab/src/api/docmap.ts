/**
 * The documents of one lab index, kept compact: each `_source` as its JSON text, parsed only when read.
 * 200,000 stored jobs then cost their text, not a tree of objects each. A record is never changed in
 * place (a write replaces it), so a point in time can hold the packed records without copying them.
 */
import { parseLong, stringifyLong } from 'smdoctor';
/** One stored document as the API sees it. */
export interface DocRecord {
  source: Record<string, unknown>;
  version: number;
  seqNo: number;
  primaryTerm: number;
  /** Insertion order, the `_doc` sort. */
  order: number;
}

export interface PackedDoc {
  /** `_source` as JSON text. */
  raw: string;
  version: number;
  seqNo: number;
  primaryTerm: number;
  order: number;
}

export const unpack = (doc: PackedDoc): DocRecord => ({
  source: parseLong(doc.raw) as Record<string, unknown>,
  version: doc.version,
  seqNo: doc.seqNo,
  primaryTerm: doc.primaryTerm,
  order: doc.order,
});
const pack = (d: DocRecord): PackedDoc => ({
  raw: stringifyLong(d.source),
  version: d.version,
  seqNo: d.seqNo,
  primaryTerm: d.primaryTerm,
  order: d.order,
});

/** A Map of id → DocRecord on the outside; packed records inside. */
export class DocMap extends Map<string, DocRecord> {
  private packed = new Map<string, PackedDoc>();

  override get size(): number {
    return this.packed.size;
  }
  override get(id: string): DocRecord | undefined {
    const p = this.packed.get(id);
    return p && unpack(p);
  }
  override has(id: string): boolean {
    return this.packed.has(id);
  }
  override set(id: string, doc: DocRecord): this {
    this.packed.set(id, pack(doc));
    return this;
  }
  override delete(id: string): boolean {
    return this.packed.delete(id);
  }
  override clear(): void {
    this.packed.clear();
  }
  override *entries(): MapIterator<[string, DocRecord]> {
    for (const [id, p] of this.packed) yield [id, unpack(p)];
  }
  override [Symbol.iterator](): MapIterator<[string, DocRecord]> {
    return this.entries();
  }
  override *keys(): MapIterator<string> {
    yield* this.packed.keys();
  }
  override *values(): MapIterator<DocRecord> {
    for (const p of this.packed.values()) yield unpack(p);
  }
  override forEach(fn: (v: DocRecord, k: string, m: Map<string, DocRecord>) => void, thisArg?: unknown): void {
    for (const [id, p] of this.packed) fn.call(thisArg, unpack(p), id, this);
  }

  /** The packed records as they are now (a snapshot: later writes replace records, they never change these). */
  packedEntries(): Array<[string, PackedDoc]> {
    return [...this.packed];
  }

  /** The JSON text of one document's source, without parsing it. */
  rawSource(id: string): string | undefined {
    return this.packed.get(id)?.raw;
  }

  /** State-file form: the source stays JSON text (`source_json`), so saving never builds the object trees. */
  toJSON(): Record<string, Omit<PackedDoc, 'raw'> & { source_json: string }> {
    const out: Record<string, Omit<PackedDoc, 'raw'> & { source_json: string }> = {};
    for (const [id, p] of this.packed)
      out[id] = { source_json: p.raw, version: p.version, seqNo: p.seqNo, primaryTerm: p.primaryTerm, order: p.order };
    return out;
  }

  /** Reads both forms: `source_json` (this class) or a `source` object (older state files). */
  static fromJSON(x: Record<string, Partial<DocRecord> & { source_json?: string }>): DocMap {
    const m = new DocMap();
    for (const [id, d] of Object.entries(x ?? {})) {
      const raw = typeof d.source_json === 'string' ? d.source_json : stringifyLong(d.source ?? {});
      m.packed.set(id, {
        raw,
        version: Number(d.version),
        seqNo: Number(d.seqNo),
        primaryTerm: Number(d.primaryTerm),
        order: Number(d.order),
      });
    }
    return m;
  }
}
