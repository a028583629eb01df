/** smdoctor's public API, by name. The CLI is a thin layer over these. */
export { SmdoctorError, UsageError, InputError, TransportError, ApiError, EXIT, exitCodeFor, formatError } from './errors.ts';
export type { ErrorCode, SourcePos } from './errors.ts';
export { VERSION } from './version.ts';
export { main } from './cli/main.ts';
export { isSecretKey, redactText, redactDeep, rememberSecret, rememberSecrets, REDACTED } from './secrets.ts';

// inventory
export { loadInventory, parseInventory, resolveInventoryPath, selectHosts, hostConfig, clustersOf, redactVars, listJson, graphText, hostJson, expandHostPattern } from './inventory/index.ts';
export type { Inventory, InventoryHost, InventoryGroup, HostConfig, HostKeyPolicy, ClusterGroup, Vars } from './inventory/index.ts';

// transport and REST
export { connectTransport, SshTransport, LocalTransport, mapLimit, mapLimitSettled, shQuote, knownHosts } from './transport/index.ts';
export type { Transport, ExecResult, ExecOptions, WriteResult, ConnectOptions, Settled } from './transport/index.ts';
export { createClusterApi, apiPassword } from './cluster/client.ts';
export type { ClusterApi, ApiRequest, ApiResponse } from './cluster/types.ts';

// audit: gather, correlate, the five checks, reports
export { runAudit, type RunAuditOptions, type AuditDeps } from './audit/run.ts';
export { auditOutcome } from './audit/outcome.ts';
export { correlate } from './audit/correlate.ts';
export { gatherHost, keystoreMatters } from './audit/gather-host.ts';
export { gatherApi } from './audit/gather-api.ts';
export { CHECKS, runChecks, dedupeRestarts, BASE_LIMIT_DEFAULTS, correctedDocument, keystoreCommand, SM_PLUGINS, KEYSTORE_ENTRY } from './checks/index.ts';
export { CHECK_IDS } from './audit/types.ts';
export type { CheckId, Check, CheckResult, CheckStatus, Finding, Action, ActionType, ActionStatus, ClusterFacts, HostFacts, ApiFacts, NodeView, Report, ClusterReport } from './audit/types.ts';
export { parseYaml, readKey, setScalar, setList, unifiedDiff } from './yamledit/index.ts';
export type { YamlIssue, YamlValue, ReadResult, EditResult, ParsedYaml } from './yamledit/index.ts';
export { renderReport, renderJson, renderJunit, renderMarkdown, renderText } from './report/index.ts';

// SML and the migration
export { explain, explainDetailed, MappingIndex, SML_ERROR_CODES } from './sml/index.ts';
export type { Explanation, FieldObject, FieldStatus, MacroDef, MacroNode, RawMappings, SmlError, ExplainContext, MappingsSource } from './sml/index.ts';
export { explainWith, exitCodeOf, clusterMacros, clusterMappings, DEFAULT_MACROS_INDEX, loadMacrosFile, loadMappingsFile } from './migrate/index.ts';

// the lab
export { startLab, loadScenario, parseScenario, scenarioNames, fleetScenario, labUp, labDown, labStatus } from './lab/index.ts';
export type { Lab, LabNode, StartLabOptions, LabStatus, LabUpOptions } from './lab/index.ts';
export { generateLabTls, type LabTls } from './lab/tls.ts';
export { IndexStore } from './lab/api/store.ts';
export { createApiHandler, createApiServer } from './lab/api/server.ts';
export { startSshd, generateKey, stopPid } from './lab/sshd.ts';

// fix: the plan carried out
export { applyPlan, applyCluster, plannedActions, planSize, fixOutcome, attachAfter, WAIT_FACTOR } from './fix/index.ts';
export type { ApplyPlanOptions, StepEnv, StepResult, StepStatus } from './fix/index.ts';
export { backupStore, expandHome, utcStamp, type BackupStore } from './backup.ts';

// migrate jobs / dashboards
export { readAll, extractJobs, extractDashboards, analyse, seedObject, applyEntries, findStored, storedConfig, STORED_VARS, DEFAULT_JOBS_INDEX, DEFAULT_DASHBOARDS_INDEX, DEFAULT_JOB_QUERY_FIELD } from './migrate/stored/index.ts';
export type { StoredDoc, StoredQuery, StoredWarning, Entry, ApplyResult, StoredConfig } from './migrate/stored/index.ts';
