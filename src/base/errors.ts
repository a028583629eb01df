/** The few error classes smdoctor throws. Only the CLI entry turns them into exit codes. */

export type ErrorCode =
  | 'USAGE' // bad flag, bad argument
  | 'INPUT' // bad inventory, unreadable or malformed file
  | 'NOT_IMPLEMENTED'
  | 'CONNECT' // host unreachable, refused
  | 'AUTH' // SSH authentication failed
  | 'HOST_KEY' // unknown or changed host key
  | 'TIMEOUT'
  | 'REMOTE' // a remote command failed
  | 'API' // the REST API failed or answered an error
  | 'FIX_FAILED'
  | 'INTERNAL';

/** Where in an input file a problem is, for messages of the form file:line:col. */
export interface SourcePos {
  file: string;
  line?: number;
  col?: number;
}

/** `file:line:col`, as much of it as is known (a column only with its line). */
export function posText(p: SourcePos): string {
  return `${p.file}${p.line ? `:${p.line}` : ''}${p.line && p.col ? `:${p.col}` : ''}`;
}

export class SmdoctorError extends Error {
  readonly code: ErrorCode;
  readonly pos?: SourcePos;
  readonly host?: string;
  constructor(code: ErrorCode, message: string, opts: { cause?: unknown; pos?: SourcePos; host?: string } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.pos = opts.pos;
    this.host = opts.host;
  }
}

/** Bad flags or arguments, or a bad input file (exit 2). */
export class UsageError extends SmdoctorError {
  constructor(message: string, opts: { cause?: unknown; pos?: SourcePos } = {}) {
    super('USAGE', message, opts);
  }
}

export class InputError extends SmdoctorError {
  constructor(message: string, opts: { cause?: unknown; pos?: SourcePos } = {}) {
    super('INPUT', message, opts);
  }
}

/** A host could not be reached, authenticated, or answered in time (exit 3). */
export class TransportError extends SmdoctorError {
  constructor(
    code: 'CONNECT' | 'AUTH' | 'HOST_KEY' | 'TIMEOUT' | 'REMOTE',
    host: string,
    message: string,
    opts: { cause?: unknown } = {},
  ) {
    super(code, `${host}: ${message}`, { ...opts, host });
  }
}

/** The REST API failed or answered an unexpected error (exit 3). */
export class ApiError extends SmdoctorError {
  readonly statusCode?: number;
  constructor(message: string, opts: { cause?: unknown; statusCode?: number } = {}) {
    super('API', message, opts);
    this.statusCode = opts.statusCode;
  }
}

/** The message of anything thrown, for a report line. */
/**
 * The default of a switch over a union: it compiles only while every member has its case, so a new member is a type
 * error where it is not handled yet. Reached at run time only by a value from outside the types: a defect, said so.
 */
export function unhandled(value: never, what: string): never {
  throw new Error(`internal error: unhandled ${what} ${JSON.stringify(value)}`);
}

export const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Exit codes, as the README documents them. */
export const EXIT = { ok: 0, findings: 1, usage: 2, incomplete: 3 } as const;

export function exitCodeFor(err: unknown): number {
  if (err instanceof SmdoctorError) {
    return err.code === 'USAGE' || err.code === 'INPUT' || err.code === 'NOT_IMPLEMENTED'
      ? EXIT.usage
      : EXIT.incomplete;
  }
  return EXIT.incomplete;
}

/** One line for standard error: file:line:col prefix when known. */
export function formatError(err: unknown): string {
  if (err instanceof SmdoctorError) {
    const p = err.pos;
    const where = p ? `${posText(p)}: ` : '';
    return `smdoctor: ${where}${err.message}`;
  }
  return `smdoctor: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
}
