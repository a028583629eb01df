import { resolve } from 'node:path';
import { writeOutput } from './output.ts';
import { escapeControls, redactText } from '../text/index.ts';

/**
 * The run context, built once at the CLI edge: everything a command may touch of the outside world, and the
 * dependencies a test may replace (`deps`; an entry left out is the real module, imported by the command itself).
 */
export interface CliContext {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Prompts (confirmation, vault password) read their answer here. */
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  deps?: Partial<RunDeps>;
}

/** What a run builds on beyond its streams; tests replace entries of it. */
export interface RunDeps {
  /** The audit of the selected hosts (gather, correlate, check). */
  audit(o: RunAuditOptions): Promise<Report>;
  /** fix: the plan carried out. */
  apply(r: Report, o: ApplyPlanOptions): Promise<ApplyOutcome>;
  /** fix: the lease of every selected cluster. */
  leases(o: LeaseOptions): Promise<FleetLeases>;
  /** The process signals that stop a fix between steps. */
  signals: NodeJS.Signals[];
  /** How fix restarts an engine node: the rolling procedure, or the plain restart it exists to prevent. */
  restart: RestartStrategy;
  /** An SSH (or local) session to a host. */
  connect: ReachDeps['connect'];
  /** The REST client of a host's cluster. */
  api: ReachDeps['api'];
}

export function processContext(): CliContext {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** The reach entries a test replaced, for the layers below (only what was given: the rest stays theirs). */
export function reachOverrides(ctx: CliContext): Partial<ReachDeps> {
  const d = ctx.deps ?? {};
  return { ...(d.connect ? { connect: d.connect } : {}), ...(d.api ? { api: d.api } : {}) };
}

import type { Format } from '../report/formats.ts';
import type { Report } from '../model/index.ts';
import type { RunAuditOptions } from '../audit/run.ts';
import type { ApplyOutcome } from '../fix/outcome.ts';
import type { ApplyPlanOptions } from '../fix/run.ts';
import type { FleetLeases, LeaseOptions } from '../fix/leases.ts';
import type { RestartStrategy } from '../fix/types.ts';
import type { ReachDeps } from '../reach/index.ts';

export interface CommonOptions {
  /** Every -i, in order. */
  inventory?: string[];
  vaultPasswordFile?: string[];
  vaultId?: string[];
  askVaultPass?: boolean;
  sshConfig?: string;
  jumpChannels?: number;
  limit?: string;
  format?: Format;
  output?: string;
  forks: number;
  timeout: number;
  verbose: number;
}

/** Writes a report to -o FILE (a plain file whole or not at all; a device or FIFO in place) or to standard output. */
export async function emit(ctx: CliContext, text: string, output?: string): Promise<void> {
  if (!output) {
    ctx.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    return;
  }
  await writeOutput(resolve(ctx.cwd, output), text.endsWith('\n') ? text : `${text}\n`);
}

/** One `smdoctor: …` line on standard error: a message may quote a host, the API or a document, so it is escaped and redacted. */
export const sayTo =
  (out: NodeJS.WritableStream) =>
  (m: string): void => {
    out.write(`smdoctor: ${escapeControls(redactText(m))}\n`);
  };

/** `text` on a terminal, `json` when piped, unless the user chose. */
export function effectiveFormat(ctx: CliContext, format?: Format, output?: string): Format {
  if (format) return format;
  return ctx.stdout.isTTY && !output ? 'text' : 'json';
}
