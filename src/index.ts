/**
 * smdoctor's public API: a handful of entry points, the steps the CLI itself takes.
 *   loadInventory + selectHosts → runAudit → renderReport; applyPlan carries an audit's plan out and returns what
 *   became of each action, fixReport makes the fix report of the plan and those outcomes; explain reads one query.
 * Everything else under src/ is internal and may change in any release. The lab is a tool of this project, not of the API.
 */
export { VERSION } from './version.ts';
export { SmdoctorError, UsageError, InputError, TransportError, ApiError, EXIT, exitCodeFor } from './errors.ts';
export { withRun } from './run.ts';
export type { ErrorCode, SourcePos } from './errors.ts';

// the fleet
export { loadInventory, selectHosts } from './inventory/index.ts';
export type { Inventory, InventoryHost, Vars } from './inventory/index.ts';

// audit: gather, correlate, the five checks; the report and its plan
export { runAudit, type RunAuditOptions } from './audit/run.ts';
export { CHECK_IDS } from './model/index.ts';
export type {
  Report,
  ClusterReport,
  CheckId,
  CheckResult,
  CheckStatus,
  Finding,
  Action,
  ActionType,
  ActionStatus,
} from './model/index.ts';
export { renderReport, type Format } from './report/index.ts';

// fix: the plan carried out, with backups of every edited file
export { applyPlan, fixReport, type ApplyPlanOptions } from './fix/index.ts';
export type { ApplyOutcome, ClusterOutcome, ActionOutcome, AllocationOutcome } from './fix/index.ts';
export { backupStore, type BackupStore } from './backup.ts';

// the keyword-autocompletion migration: one query explained
export { explain } from './sml/index.ts';
export type {
  Explanation,
  ExplainContext,
  FieldObject,
  FieldStatus,
  MacroDef,
  RawMappings,
  SmlError,
} from './sml/index.ts';
