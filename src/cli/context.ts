import { resolve } from 'node:path';
import { writeOutput } from './output.ts';
import { escapeControls, redactText } from '../text/index.ts';

/** An output stream, and what it says of the terminal behind it, if any. */
export type Terminal = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/**
 * The run context, built once at the CLI edge: everything a command may touch of the outside world, and the
 * dependencies a test may replace (`deps`; an entry left out is the real module, imported by the command itself).
 */
export interface CliContext {
  stdout: Terminal;
  stderr: Terminal;
  /** Prompts (confirmation, vault password) read their answer here. */
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  deps?: Partial<RunDeps>;
  /** The run's ssh configuration as read and its jump connections (main() makes one per command, serve per reload). */
  routes?: RouteCache;
}

/**
 * What the layers below build on, handed down whole as each one's `deps` (audit, fix, the leases, export, the
 * migration): the clock, how hosts and clusters are reached, and fix's steps (a test's plain restart).
 */
export interface LayerDeps extends ReachDeps, Clock {
  steps: Partial<StepTable>;
}

/** What a run builds on beyond its streams; tests replace entries of it. */
export interface RunDeps extends LayerDeps {
  /** The audit of the selected hosts (gather, correlate, check). */
  audit(o: RunAuditOptions): Promise<Report>;
  /** fix: the plan carried out. */
  apply(r: Report, o: ApplyPlanOptions): Promise<ApplyOutcome>;
  /** fix: the lease of every selected cluster. */
  leases(o: LeaseOptions): Promise<FleetLeases>;
  /** The process signals that stop a fix between steps. */
  signals: NodeJS.Signals[];
}

export function processContext(): CliContext {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** The one deps object of the layers below: the entries a test replaced (the rest stays theirs), none when none was. */
export function layerDeps(ctx: CliContext): { deps?: Partial<LayerDeps> } {
  if (!ctx.deps) return {};
  // the command's own replacements stay here
  const { audit: _audit, apply: _apply, leases: _leases, signals: _signals, ...deps } = ctx.deps;
  return Object.keys(deps).length ? { deps } : {};
}

import type { Format } from '../report/formats.ts';
import type { Report } from '../model/index.ts';
import type { RunAuditOptions } from '../audit/run.ts';
import type { ApplyOutcome } from '../fix/outcome.ts';
import type { ApplyPlanOptions } from '../fix/run.ts';
import type { FleetLeases, LeaseOptions } from '../fix/leases.ts';
import type { StepTable } from '../fix/types.ts';
import type { Clock } from '../base/clock.ts';
import type { ReachDeps, RouteCache } from '../reach/index.ts';

/** Writes a report to -o FILE (a plain file whole or not at all; a device or FIFO in place) or to standard output. */
export async function emit(ctx: CliContext, text: string, output?: string): Promise<void> {
  if (!output) {
    ctx.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    return;
  }
  await writeOutput(resolve(ctx.cwd, output), text.endsWith('\n') ? text : `${text}\n`);
}

/** Standard error, written only through this (an ESLint rule keeps src/cli to it). */
export interface Say {
  /**
   * One `smdoctor: [label: ]m` line: the message may quote a host, the API or a document, so it is escaped and
   * redacted; the label (`warning`, `incomplete`) is smdoctor's own words, written as they are.
   */
  (m: string, label?: string): void;
  /** Text its maker already made safe (a rendered report, a question, an error line), written as it is. */
  raw(text: string): void;
}

export function sayTo(out: NodeJS.WritableStream): Say {
  const say = (m: string, label?: string): void => {
    out.write(`smdoctor: ${label ? `${label}: ` : ''}${escapeControls(redactText(m))}\n`);
  };
  return Object.assign(say, { raw: (text: string): void => void out.write(text) });
}

/** The columns a text report must fit: the terminal's when `out` is one, else COLUMNS when set; none for a file. */
export function textWidth(ctx: CliContext, out: Terminal, output?: string): number | undefined {
  if (output) return undefined;
  const n = out.isTTY ? out.columns : Number(ctx.env.COLUMNS);
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** `text` on a terminal, `json` when piped, unless the user chose. */
export function effectiveFormat(ctx: CliContext, format?: Format, output?: string): Format {
  if (format) return format;
  return ctx.stdout.isTTY && !output ? 'text' : 'json';
}
