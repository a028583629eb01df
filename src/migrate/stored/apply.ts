/** --apply: back up every document, then write it back with if_seq_no/if_primary_term (a 409 leaves it alone). */

import { deniedText } from '../../cluster/denied.ts';
import { backupStore } from '../../base/backup.ts';
import { stringifyLong } from '../../base/json-long.ts';
import { ApiError, SmdoctorError, errText } from '../../base/errors.ts';
import type { ClusterApi } from '../../cluster/types.ts';
import type { Entry } from './analyse.ts';
import { getField, isObj, setField } from './extract.ts';
import { formatJsonField, parseJsonField } from './jsonfield.ts';
import { replaceStrings } from './jsonedit.ts';
import type { ApplyResult } from './output.ts';
import { backupFileName, ID_INDEX, idIndex } from './backup-names.ts';
import { changesOnWrite } from './roundtrip.ts';
import type { StoredDoc } from './read.ts';

export interface ApplyOptions {
  /** Already expanded; a `<UTC timestamp>` folder is made inside. */
  backupDir: string;
  now?: Date;
  /** Ctrl-C (or the lease lost): no further document is rewritten; its reason, when an Error, says why. */
  signal?: AbortSignal;
}

interface Group {
  doc: StoredDoc;
  entries: Entry[];
  source?: Record<string, unknown>;
  error?: string;
}

/** The document with every replacement of the group set, checking each still holds its original. */
function rewrite(g: Group): Record<string, unknown> {
  const src = structuredClone(g.doc.source);
  const first = g.entries[0].q;
  if (first.kind === 'jobs') {
    for (const e of g.entries) {
      if (getField(src, e.q.path) !== e.explanation.original)
        throw new Error(`${e.q.path} no longer holds the query read`);
      setField(src, e.q.path, e.explanation.replacement);
    }
    return src;
  }
  const parsed = parseJsonField(src.json);
  if ('error' in parsed) throw new Error(parsed.error);
  for (const e of g.entries) {
    const [r, p] = e.q.panel!;
    const rows = parsed.value.rows as unknown[];
    const panel = (isObj(rows[r]) ? (rows[r] as { panels?: unknown[] }).panels?.[p] : undefined) as
      Record<string, unknown> | undefined;
    const sme = (panel as { viz?: { options?: { sme?: Record<string, unknown> } } } | undefined)?.viz?.options?.sme;
    if (!sme || sme.query !== e.explanation.original) throw new Error(`${e.q.path} no longer holds the query read`);
    sme.query = e.explanation.replacement;
  }
  // a JSON string keeps its exact text but for the queries; re-serialised (same indentation) only if that fails
  const inPlace =
    typeof src.json === 'string'
      ? replaceStrings(
          src.json,
          g.entries.map((e) => ({
            path: ['rows', e.q.panel![0], 'panels', e.q.panel![1], 'viz', 'options', 'sme', 'query'],
            from: e.explanation.original,
            to: e.explanation.replacement,
          })),
        )
      : undefined;
  src.json = inPlace ?? formatJsonField(parsed.value, parsed.style);
  return src;
}

export async function applyEntries(
  api: ClusterApi,
  entries: readonly Entry[],
  o: ApplyOptions,
): Promise<{ results: Map<Entry, ApplyResult>; backupPath?: string }> {
  const results = new Map<Entry, ApplyResult>();
  const groups = new Map<string, Group>();
  for (const e of entries) {
    if (e.manual) {
      results.set(e, { status: 'skipped', message: 'needs a person: not rewritten' });
      continue;
    }
    const key = `${e.q.doc.index}\u0000${e.q.doc.id}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { doc: e.q.doc, entries: [] }));
    g.entries.push(e);
  }
  const todo: Group[] = [];
  for (const g of groups.values()) {
    const refused = changesOnWrite(g.doc.source);
    if (refused) {
      for (const e of g.entries) results.set(e, { status: 'skipped', message: `not rewritten: ${refused}` });
      continue;
    }
    try {
      if (!Number.isInteger(g.doc.seqNo) || !Number.isInteger(g.doc.primaryTerm))
        throw new Error('the read gave no _seq_no/_primary_term');
      g.source = rewrite(g);
      todo.push(g);
    } catch (err) {
      for (const e of g.entries) results.set(e, { status: 'failed', message: errText(err) });
    }
  }
  if (todo.length === 0) return { results };

  const store = backupStore(o.backupDir, o.now);
  const backupPath = store.dir;
  const saveOrStop = async (what: string, name: string, index: string, text: string): Promise<void> => {
    try {
      await store.save(index, name, text);
    } catch (cause) {
      const why = (cause as NodeJS.ErrnoException).code ?? errText(cause);
      throw new SmdoctorError(
        'FIX_FAILED',
        `cannot write the backup of ${what} under ${backupPath} (${why}): nothing was changed`,
        { cause },
      );
    }
  };
  const byIndex = new Map<string, string[]>();
  for (const g of todo) {
    await saveOrStop(
      `${g.doc.index}/${g.doc.id}`,
      backupFileName(g.doc.id),
      g.doc.index,
      `${stringifyLong(g.doc.source, 2)}\n`,
    );
    byIndex.set(g.doc.index, [...(byIndex.get(g.doc.index) ?? []), g.doc.id]);
  }
  for (const [index, ids] of byIndex) await saveOrStop(`index ${index}'s ${ID_INDEX}`, ID_INDEX, index, idIndex(ids));
  for (const g of todo) {
    // stopped between rewrites: what was written stays, the rest is reported as not rewritten
    const r = o.signal?.aborted ? stopped(o.signal) : await put(api, g);
    for (const e of g.entries) results.set(e, r);
  }
  // the next read (a second run) sees the writes at once
  for (const index of new Set(todo.map((g) => g.doc.index))) {
    await api.request({ method: 'POST', path: `/${encodeURIComponent(index)}/_refresh` }).catch(() => undefined);
  }
  return { results, backupPath };
}

const stopped = (signal: AbortSignal): ApplyResult => ({
  status: 'skipped',
  message: `not rewritten: ${signal.reason instanceof Error && signal.reason.name !== 'AbortError' ? signal.reason.message : 'interrupted'}`,
});

async function put(api: ClusterApi, g: Group): Promise<ApplyResult> {
  const path = `/${encodeURIComponent(g.doc.index)}/_doc/${encodeURIComponent(g.doc.id)}`;
  try {
    const res = await api.request({
      method: 'PUT',
      path,
      querystring: { if_seq_no: g.doc.seqNo, if_primary_term: g.doc.primaryTerm },
      body: g.source,
    });
    if (res.statusCode === 200 || res.statusCode === 201) return { status: 'applied' };
    if (res.statusCode === 409) return { status: 'conflict', message: 'changed since it was read: re-run' };
    // a refusal names the missing permission and what to do
    return {
      status: 'failed',
      message: `PUT ${path} answered ${deniedText(res.statusCode, res.body) ?? res.statusCode}`,
    };
  } catch (err) {
    if (err instanceof ApiError) return { status: 'failed', message: err.message };
    throw err;
  }
}
