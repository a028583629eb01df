/** `migrate jobs` / `migrate dashboards`: stored queries (jobs in .sm_jsc_jobs, dashboard panels in .sm_dashboards), their replacement lists and a safe --apply. */
export { type StoredDoc, type ReadOptions } from './read.ts';
export { readAll } from './pages.ts';
export {
  extractJobs,
  extractDashboards,
  type StoredKind,
  type StoredQuery,
  type StoredWarning,
  type Extracted,
} from './extract.ts';
export { parseJsonField, formatJsonField, type JsonStyle } from './jsonfield.ts';
export { analyse, type Entry } from './analyse.ts';
export {
  replacementObject,
  renderJson,
  renderText as renderStoredText,
  type ApplyResult,
  type ApplyStatus,
} from './output.ts';
export { applyEntries, type ApplyOptions } from './apply.ts';
export {
  findStored,
  storedConfig,
  STORED_VARS,
  DEFAULT_JOBS_INDEX,
  DEFAULT_DASHBOARDS_INDEX,
  DEFAULT_JOB_QUERY_FIELD,
  type StoredConfig,
  type StoredFindings,
} from './find.ts';
