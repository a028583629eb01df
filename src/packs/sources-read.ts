/** The value of one source on one node (or of the cluster), from the facts gathered once: read, absent, or an error. */
import { linearRegExp } from '../base/linear-regex.ts';
import { readSetting } from '../facts/yml.ts';
import type { EngineEnv } from '../facts/placeholders.ts';
import type { ApiFacts, HostFacts, NodeView, PackRead, RemoteFile, PackSource } from '../model/index.ts';
import { isSecretKey } from '../text/index.ts';
import { parsedFile } from '../facts/yml.ts';
import { readKey } from '../yamledit/index.ts';
import { configRelative, readCertificate } from './sources-cert.ts';
import { jvmOption } from './sources-jvm.ts';
import {
  certificates,
  disk,
  engineVersion,
  fileModified,
  settingKeys,
  shardUsage,
  startedAt,
} from './sources-fleet.ts';
import { apiRequest, fileKey, fileNeed, unsafeRelPath } from './sources.ts';

/** `value` undefined: absent. */
export type Read = { ok: true; value: unknown } | { ok: false; error: string };

export interface ReadContext {
  /** null for `each: cluster`. */
  host: HostFacts | null;
  api: ApiFacts;
  now: Date;
  /** The cluster's running nodes, matched to hosts (the fleet pack's per-node API sources). */
  nodes?: NodeView[];
}

const ok = (value: unknown): Read => ({ ok: true, value });
const err = (error: string): Read => ({ ok: false, error });

/** Whether a source's value is a secret: a secret-named setting, or the keystore (its names only are ever read). */
export function isSecretSource(s: PackSource): boolean {
  return (s.kind === 'setting' || s.kind === 'dashboards_setting') && isSecretKey(s.key);
}

/** A setting as the engine loads it: `${VAR}` resolved from its environment (`env`), or an error saying why not. */
function setting(file: RemoteFile | null, key: string, what: string, env: EngineEnv): Read {
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
  if (v.state === 'limit') return err(`${key} in ${file.path}: ${v.message}`);
  return ok(v.value ?? undefined);
}

function text(
  read: PackRead | undefined,
  what: string,
): { ok: true; text: string | null } | { ok: false; error: string } {
  if (!read) return { ok: false, error: `${what} was not read (the batched command did not finish)` };
  return read.error ? { ok: false, error: read.error } : { ok: true, text: read.text };
}

const LIMIT_ROW: Record<string, string> = {
  max_locked_memory: 'Max locked memory',
  max_open_files: 'Max open files',
  max_processes: 'Max processes',
};

/** The soft limit of `/proc/PID/limits`: `unlimited` or a number. */
function processLimit(table: string, limit: string): Read {
  const row = table.split('\n').find((l) => l.startsWith(LIMIT_ROW[limit] ?? '\0'));
  const soft = row?.slice(LIMIT_ROW[limit]!.length).trim().split(/\s+/)[0];
  if (soft === undefined) return err(`the process's limits have no ${LIMIT_ROW[limit]} row`);
  return ok(soft === 'unlimited' ? 'unlimited' : Number(soft));
}

/** `a.b.0.c`; `*` maps over a list or an object's values, dropping what is missing below it. */
export function pick(value: unknown, path: string): unknown {
  const walk = (v: unknown, parts: string[]): unknown => {
    if (parts.length === 0) return v;
    const [p, ...rest] = parts as [string, ...string[]];
    if (p === '*') {
      const items = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : undefined;
      return items?.map((x) => walk(x, rest)).filter((x) => x !== undefined);
    }
    if (v === null || typeof v !== 'object') return undefined;
    // a flat key (`flat_settings=true`) holds dots: the longest key written as it is wins
    for (let n = parts.length; n > 1; n--) {
      const key = parts.slice(0, n).join('.');
      if (Object.hasOwn(v, key)) return walk((v as Record<string, unknown>)[key], parts.slice(n));
    }
    return Object.hasOwn(v, p) ? walk((v as Record<string, unknown>)[p], rest) : undefined;
  };
  return path === '' ? value : walk(value, path.split('.'));
}

function plain(s: PackSource, c: ReadContext): Read {
  const h = c.host;
  if (s.kind === 'api') {
    const a = c.api.packReads?.[s.path];
    if (!a) return err(`GET ${apiRequest(s.path).path} was not read${c.api.error ? `: ${c.api.error}` : ''}`);
    if (a.statusCode !== 200) return err(`GET ${apiRequest(s.path).path} answered ${a.statusCode || 'nothing'}`);
    return ok(pick(a.body, s.pick));
  }
  if (s.kind === 'shard_usage') return shardUsage(c);
  if (!h) return err(`${s.kind} is read on nodes, not of the cluster (each: node)`);
  if (!h.reachable) return err(`host ${h.host} is unreachable${h.error ? `: ${h.error}` : ''}`);
  const reads = h.packReads;
  switch (s.kind) {
    case 'setting':
      return setting(h.engineYml, s.key, `${h.config.engine}.yml`, h.engineEnv);
    case 'dashboards_setting':
      return setting(h.dashboardsYml, s.key, `${h.config.engine}_dashboards.yml`, null);
    case 'plugins':
      return ok(
        h.plugins.map((p) => ({ name: p.name, version: p.version ?? null, engine_version: p.engineVersion ?? null })),
      );
    case 'keystore':
      return h.keystore ? ok([...h.keystore]) : err('the keystore was not listed');
    case 'file': {
      const f = fileNeed(s.path);
      const bad = unsafeRelPath(f.path);
      if (bad) return err(`file ${f.path} is refused: ${bad}`);
      const t = text(reads?.files[fileKey(f)], f.path);
      if (!t.ok) return t;
      if (t.text === null) return ok(undefined);
      const m = linearRegExp(s.match, 'm').exec(t.text);
      return ok(m ? (m[1] ?? m[0]) : undefined);
    }
    case 'sysctl': {
      const t = text(reads?.sysctls[s.name], `sysctl ${s.name}`);
      if (!t.ok) return t;
      const v = t.text?.trim();
      return ok(v === undefined ? undefined : /^-?\d+$/.test(v) ? Number(v) : v);
    }
    case 'memory': {
      const t = text(reads?.meminfo, 'meminfo');
      if (!t.ok) return t;
      const kb = /^MemTotal:\s+(\d+)\s*kB/m.exec(t.text ?? '');
      return kb ? ok(Number(kb[1]) * 1024) : err('meminfo has no MemTotal line');
    }
    case 'engine_process': {
      if (s.limit === 'started_at') return startedAt(c);
      const t = text(reads?.limits, "the engine process's limits");
      if (!t.ok) return t;
      if (t.text === null) return err('no running engine process was found (its pid file names none)');
      return processLimit(t.text, s.limit);
    }
    case 'jvm_option': {
      if (!reads) return err('jvm.options was not read');
      const v = jvmOption(reads, s.option);
      return v.ok ? ok(v.value) : err(v.error);
    }
    case 'certificate': {
      const where = setting(h.engineYml, s.setting, `${h.config.engine}.yml`, h.engineEnv);
      if (!where.ok || where.value === undefined) return where;
      const rel = configRelative(String(where.value), h.config.searchHome);
      const t = text(rel === undefined ? undefined : reads?.certs?.[rel], `certificate ${String(where.value)}`);
      if (!t.ok) return t;
      if (t.text === null) return err(`certificate ${String(where.value)} is missing`);
      try {
        return ok(readCertificate(t.text, c.now));
      } catch (e) {
        return err(`certificate ${String(where.value)} cannot be parsed: ${(e as Error).message}`);
      }
    }
    case 'certificates':
      return certificates((setting) => plain({ kind: 'certificate', setting }, c));
    case 'setting_keys':
      return settingKeys(c);
    case 'engine_version':
      return engineVersion(c);
    case 'disk':
      return disk(c);
    case 'file_modified':
      return fileModified(c, s.path);
  }
}

/** The source's value, with `field:` applied (over each item of a list). */
export function readSource(s: PackSource, c: ReadContext): Read {
  const r = plain(s, c);
  if (!r.ok || s.field === undefined || r.value === undefined) return r;
  const field = s.field;
  const one = (v: unknown) =>
    v && typeof v === 'object' && Object.hasOwn(v, field) ? (v as Record<string, unknown>)[field] : undefined;
  return ok(Array.isArray(r.value) ? r.value.map(one) : one(r.value));
}
