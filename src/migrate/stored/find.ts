/** `migrate jobs` / `migrate dashboards` without the CLI: read the index, pick out the queries, explain them. */

import type { ClusterApi } from '../../cluster/types.ts';
import type { ExplainSources } from '../explain.ts';
import { PageAnalyser, type Entry } from './analyse.ts';
import { extractDashboards, extractJobs, type StoredKind, type StoredWarning } from './extract.ts';
import type { ReadOptions } from './read.ts';
import { openPages } from './pages.ts';

/** Inventory variables (ours: the vendor names the indices but not the job's query field). */
export const STORED_VARS = {
  jobsIndex: 'sml_jobs_index',
  dashboardsIndex: 'sml_dashboards_index',
  jobQueryField: 'sml_job_query_field',
} as const;
export const DEFAULT_JOBS_INDEX = '.sm_jsc_jobs';
export const DEFAULT_DASHBOARDS_INDEX = '.sm_dashboards';
export const DEFAULT_JOB_QUERY_FIELD = 'query';

export interface StoredConfig {
  jobsIndex: string;
  dashboardsIndex: string;
  jobQueryField: string;
}

export function storedConfig(vars: Record<string, unknown>): StoredConfig {
  const str = (k: string, d: string) => (typeof vars[k] === 'string' && vars[k] !== '' ? (vars[k] as string) : d);
  return {
    jobsIndex: str(STORED_VARS.jobsIndex, DEFAULT_JOBS_INDEX),
    dashboardsIndex: str(STORED_VARS.dashboardsIndex, DEFAULT_DASHBOARDS_INDEX),
    jobQueryField: str(STORED_VARS.jobQueryField, DEFAULT_JOB_QUERY_FIELD),
  };
}

export interface StoredFindings {
  index: string;
  /** The index does not exist: nothing is stored there. */
  missing: boolean;
  entries: Entry[];
  warnings: StoredWarning[];
}

/** Streams the index through the analysis page by page: only what needs replacement or review is kept. */
export async function findStored(
  api: ClusterApi,
  kind: StoredKind,
  cfg: StoredConfig,
  sources: ExplainSources,
  read: ReadOptions = {},
): Promise<StoredFindings> {
  const index = kind === 'jobs' ? cfg.jobsIndex : cfg.dashboardsIndex;
  const opened = await openPages(api, index, read);
  if (opened.missing) return { index, missing: true, entries: [], warnings: [] };
  const analyser = new PageAnalyser(sources);
  const entries: Entry[] = [];
  const warnings: StoredWarning[] = [];
  for await (const docs of opened.pages) {
    const x = kind === 'jobs' ? extractJobs(docs, cfg.jobQueryField) : extractDashboards(docs);
    warnings.push(...x.warnings);
    entries.push(...(await analyser.page(x.queries)));
  }
  return { index, missing: false, entries, warnings };
}
