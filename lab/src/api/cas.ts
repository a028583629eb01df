/** Optimistic concurrency on documents: `if_seq_no`/`if_primary_term` and `op_type=create`, with the engine's 409. */
import { ApiFailure } from './errors.ts';
import type { DocRecord } from './docmap.ts';
import { shardOf, type IndexRecord } from './records.ts';

export interface CasOptions {
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
}

export function versionConflict(rec: IndexRecord, id: string, detail: string): ApiFailure {
  return new ApiFailure(409, 'version_conflict_engine_exception', `[${id}]: version conflict, ${detail}`, {
    index_uuid: rec.settings['index.uuid'],
    shard: String(shardOf(id, Number(rec.settings['index.number_of_shards']))),
    index: rec.name,
  });
}

/** Throws the 409 when the document is not at the required sequence number and primary term. */
export function checkCas(rec: IndexRecord, id: string, old: DocRecord | undefined, opts: CasOptions): void {
  if (opts.ifSeqNo === undefined && opts.ifPrimaryTerm === undefined) return;
  const want = `required seqNo [${opts.ifSeqNo}], primary term [${opts.ifPrimaryTerm}].`;
  if (!old) throw versionConflict(rec, id, `${want} but no document was found`);
  if (old.seqNo !== opts.ifSeqNo || old.primaryTerm !== opts.ifPrimaryTerm)
    throw versionConflict(
      rec,
      id,
      `${want} current document has seqNo [${old.seqNo}] and primary term [${old.primaryTerm}]`,
    );
}
