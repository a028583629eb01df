/**
 * smdoctor's public API: a handful of entry points, the steps the CLI itself takes.
 *   loadInventory + selectHosts → runAudit → renderReport; applyPlan carries an audit's plan out and returns what
 *   became of each action, fixReport makes the fix report of the plan and those outcomes; explain reads one query.
 * Everything else under src/ is internal and may change in any release. The lab is a tool of this project, not of the API.
 */
export { VERSION } from './base/version.ts';
export { SmdoctorError, UsageError, InputError, TransportError, ApiError, EXIT, exitCodeFor } from './base/errors.ts';
export { withRun } from './base/run-scope.ts';
export type { ErrorCode, SourcePos } from './base/errors.ts';

// the fleet
export { loadInventory } from './inventory/load.ts';
export { selectHosts } from './inventory/select.ts';
export type { Inventory, InventoryHost, Vars } from './inventory/types.ts';

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
export { renderReport } from './report/render.ts';
export type { Format } from './report/formats.ts';

// fix: the plan carried out, with backups of every edited file
export { applyPlan, type ApplyPlanOptions } from './fix/run.ts';
export { fixReport } from './fix/report.ts';
export type { ApplyOutcome, ClusterOutcome, ActionOutcome, AllocationOutcome } from './fix/outcome.ts';
export { backupStore, type BackupStore } from './base/backup.ts';

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

// for the lab (`@smdoctor/lab`, an emulated cluster for the demo and tests) and other tools: the vendor's migration
// service shares smdoctor's analysis of stored queries, so an emulation of it answers with these same functions
export { explainDetailed, MappingIndex } from './sml/index.ts';
export { extractJobs, extractDashboards } from './migrate/stored/extract.ts';
export { entryOf } from './migrate/stored/analyse.ts';
export { replacementObject } from './migrate/stored/output.ts';
export type { StoredDoc } from './migrate/stored/read.ts';
// JSON whose 64-bit integers stay exact, as the REST client reads and writes it
export { parseLong, stringifyLong } from './base/json-long.ts';
// an Ansible Vault payload, as ansible-vault encrypts it
export { encryptVault } from './inventory/vault.ts';
// YAML read under the alias limit every smdoctor input has
export { withAliasLimit } from './base/yaml-aliases.ts';
// `${VAR}` placeholders of an engine config, resolved as the engine resolves them at start
export { resolvePlaceholders, resolveSetting, type EngineEnv, type Resolved } from './facts/placeholders.ts';
