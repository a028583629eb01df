/** What every source's reader shares: the context it reads from, its answer (a value, absent, or an error), small helpers. */
import { readSetting, parsedFile } from '../../facts/yml.ts';
import type { EngineEnv } from '../../facts/placeholders.ts';
import type { ApiFacts, HostFacts, NodeView, PackRead, RemoteFile } from '../../model/index.ts';
import { readKey } from '../../yamledit/index.ts';

/** `value` undefined: absent, and `absent` may say how ("has no line matching …"). */
export type Read = { ok: true; value: unknown; absent?: string } | { ok: false; error: string };

export interface ReadContext {
  /** null for `each: cluster`. */
  host: HostFacts | null;
  api: ApiFacts;
  now: Date;
  /** The cluster's running nodes, matched to hosts (the fleet pack's per-node API sources). */
  nodes?: NodeView[];
}

export const ok = (value: unknown): Read => ({ ok: true, value });
export const err = (error: string): Read => ({ ok: false, error });

/** A setting as the engine loads it: `${VAR}` resolved from its environment (`env`), or an error saying why not. */
export function setting(file: RemoteFile | null, key: string, what: string, env: EngineEnv): Read {
  if (!file) return err(`${what} is missing`);
  const p = parsedFile(file);
  if (p.error) return err(`${file.path}:${p.error}`);
  const r = readKey(p.doc, key);
  if (r.errors[0]) return err(`${file.path}:${r.errors[0].line}:${r.errors[0].col}: ${r.errors[0].message}`);
  const v = readSetting(p.doc, key, env);
  if (v.state === 'unknown')
    return err(
      `${key} uses \${${v.names.join('}, ${')}}, which the engine fills from its environment at start, and that environment could not be read here`,
    );
  if (v.state === 'refused') return err(`${key}: the engine would refuse to start: ${v.message}`);
  return ok(v.value ?? undefined);
}

/** A host read of the batched command: its text (null when absent), or why it could not be read. */
export function text(
  read: PackRead | undefined,
  what: string,
): { ok: true; text: string | null } | { ok: false; error: string } {
  if (!read) return { ok: false, error: `${what} was not read (the batched command did not finish)` };
  return read.error ? { ok: false, error: read.error } : { ok: true, text: read.text };
}

/** The section a source's own lines of the batched command answered for `key` (sources with `host:`). */
export const hostRead = (c: ReadContext, kind: string, key: string): PackRead | undefined =>
  c.host?.packReads?.byKind?.[kind]?.[key];
