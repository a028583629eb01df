/** smdoctor fix: the audit's plan carried out in order, safely. The plan itself stays the audit's pure data. */
export { applyPlan, type ApplyPlanOptions, type FixDeps } from './run.ts';
export { applyCluster, plannedActions, stepName, STEPS, type ApplyHooks } from './apply.ts';
export { planSize, confirmQuestion, fixOutcome, type PlanSize } from './plan.ts';
export { fixReport, driftReport, settledAction, attachAfter } from './report.ts';
export type {
  ActionOutcome,
  AllocationOutcome,
  ApplyOutcome,
  ClusterOutcome,
  DoneOutcome,
  FailedOutcome,
  RefusedOutcome,
  SkippedOutcome,
} from './outcome.ts';
export { putDocument, putSettings, verifyShards, apiErrorText } from './steps-api.ts';
export { editFile, removeCommand, NOT_FOUND, NO_KEYSTORE } from './steps-host.ts';
export { restartCommand, restartService } from './restart.ts';
export { WAIT_FACTOR, type Step, type StepEnv, type StepResult, type StepStatus } from './types.ts';
