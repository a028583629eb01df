/** The stored queries of job and dashboard documents (jobs in .sm_jsc_jobs, panels inside a dashboard's `json`); unreadable documents become warnings. */

import type { StoredDoc } from './read.ts';
import { parseJsonField } from './jsonfield.ts';

export type StoredKind = 'jobs' | 'dashboards';

export interface StoredQuery {
  kind: StoredKind;
  doc: StoredDoc;
  /** `_meta.id` (job or dashboard identifier); the document `_id` when the document has none. */
  ownerId: string;
  /** The job's query field, or `rows[<n>].panels[<n>].viz.options.sme.query` inside the dashboard's `json`. */
  path: string;
  /** Row and panel of a dashboard query. */
  panel?: [number, number];
  query: string;
}

export interface StoredWarning {
  index: string;
  doc_id: string;
  path?: string;
  message: string;
}

export interface Extracted {
  queries: StoredQuery[];
  warnings: StoredWarning[];
}

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A dotted field name: the literal key first (`a.b` may be one key), else the object path. */
export function getField(src: Obj, field: string): unknown {
  if (field in src) return src[field];
  let cur: unknown = src;
  for (const part of field.split('.')) cur = isObj(cur) ? cur[part] : undefined;
  return cur;
}

export function setField(src: Obj, field: string, value: unknown): void {
  if (field in src) {
    src[field] = value;
    return;
  }
  const parts = field.split('.');
  let cur: unknown = src;
  for (const part of parts.slice(0, -1)) cur = isObj(cur) ? cur[part] : undefined;
  if (!isObj(cur)) throw new Error(`no field ${field}`);
  cur[parts[parts.length - 1]] = value;
}

const ownerOf = (d: StoredDoc) => {
  const meta = d.source._meta;
  return isObj(meta) && typeof meta.id === 'string' ? meta.id : d.id;
};

export function extractJobs(docs: readonly StoredDoc[], field: string): Extracted {
  const out: Extracted = { queries: [], warnings: [] };
  for (const doc of docs) {
    const q = getField(doc.source, field);
    if (typeof q !== 'string' || q.trim() === '') {
      const what = q === undefined ? 'has no' : 'has no string in its';
      out.warnings.push({
        index: doc.index,
        doc_id: doc.id,
        path: field,
        message: `job ${ownerOf(doc)} ${what} query field \`${field}\``,
      });
      continue;
    }
    out.queries.push({ kind: 'jobs', doc, ownerId: ownerOf(doc), path: field, query: q });
  }
  return out;
}

/** `sme.query` of the panel, or undefined when the panel has none (not an SML panel). */
function panelQuery(panel: unknown): unknown {
  const viz = isObj(panel) ? panel.viz : undefined;
  const options = isObj(viz) ? viz.options : undefined;
  const sme = isObj(options) ? options.sme : undefined;
  return isObj(sme) ? sme.query : undefined;
}

export function extractDashboards(docs: readonly StoredDoc[]): Extracted {
  const out: Extracted = { queries: [], warnings: [] };
  for (const doc of docs) {
    const warn = (message: string, path?: string) =>
      out.warnings.push({ index: doc.index, doc_id: doc.id, ...(path ? { path } : {}), message });
    const parsed = parseJsonField(doc.source.json);
    if ('error' in parsed) {
      warn(`dashboard ${ownerOf(doc)}: ${parsed.error}`);
      continue;
    }
    const rows = parsed.value.rows;
    if (rows === undefined) continue; // a dashboard without rows holds no panel
    if (!Array.isArray(rows)) {
      warn(`dashboard ${ownerOf(doc)}: json.rows is not an array`);
      continue;
    }
    rows.forEach((row, r) => {
      const panels = isObj(row) ? row.panels : undefined;
      if (panels !== undefined && !Array.isArray(panels))
        warn(`dashboard ${ownerOf(doc)}: rows[${r}].panels is not an array`);
      if (!Array.isArray(panels)) return;
      panels.forEach((panel, p) => {
        const path = `rows[${r}].panels[${p}].viz.options.sme.query`;
        const q = panelQuery(panel);
        if (q === undefined) return;
        if (typeof q !== 'string') warn(`dashboard ${ownerOf(doc)}: ${path} is not a string`, path);
        else out.queries.push({ kind: 'dashboards', doc, ownerId: ownerOf(doc), path, panel: [r, p], query: q });
      });
    });
  }
  return out;
}
