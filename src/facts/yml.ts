/** Reads engine configs the way the engine does, through src/yamledit: flat dotted keys and nested maps are the same setting. */
import { parseYaml, readKey, scalarLeaves, type ParsedYaml } from '../yamledit/index.ts';
import { isSecretKey } from '../text/index.ts';
import type { RemoteFile } from '../model/index.ts';
import { resolveSetting, type EngineEnv, type Resolved } from './placeholders.ts';

export interface ParsedYml {
  doc: ParsedYaml;
  /** The first problem (bad YAML, a key set twice), as `line:col: message`; keys then read as absent. */
  error?: string;
}

export function parseYml(text: string): ParsedYml {
  const doc = parseYaml(text);
  const e = doc.errors[0];
  return e ? { doc, error: `${e.line}:${e.col}: ${e.message}` } : { doc };
}

// beside the facts, not in them: the facts stay plain data, and a file read once is parsed once
const parsedFiles = new WeakMap<RemoteFile, ParsedYml>();

/** A gathered file's one parse, shared by gather, correlate and the checks (parsed again only if its text changed). */
export function parsedFile(file: RemoteFile): ParsedYml {
  let p = parsedFiles.get(file);
  if (!p || p.doc.text !== file.text) parsedFiles.set(file, (p = parseYml(file.text)));
  return p;
}

/** Value of a dotted key, whatever mix of flat and nested spelling the file uses. */
export function getDotted(doc: ParsedYaml, key: string): unknown {
  return readKey(doc, key).found?.value ?? undefined;
}

/** A setting as the engine loads it: its `${…}` placeholders resolved from the engine's environment and the file. */
export function readSetting(doc: ParsedYaml, key: string, env: EngineEnv): Resolved<unknown> {
  return resolveSetting(getDotted(doc, key), env, (name) => {
    const v = getDotted(doc, name);
    return v === undefined || v === null || typeof v === 'object' ? undefined : String(v);
  });
}

/**
 * The value of every secret-named setting of a config (each list item too), as written and as the engine resolves
 * its placeholders: what a report must never show, wherever a check happens to print it.
 */
export function secretValues(doc: ParsedYaml, env: EngineEnv): string[] {
  const out = new Set<string>();
  for (const { key, value } of scalarLeaves(doc)) {
    if (!isSecretKey(key) || value === null || value === undefined || typeof value === 'object') continue;
    out.add(String(value));
    let r: Resolved<unknown>;
    try {
      r = resolveSetting(value, env, (name) => {
        const v = getDotted(doc, name);
        return v === undefined || v === null || typeof v === 'object' ? undefined : String(v);
      });
    } catch {
      // a hostile placeholder nesting (too deep to resolve) is the checks' to report: gathering goes on
      continue;
    }
    if (r.state === 'value' && (typeof r.value === 'string' || typeof r.value === 'number')) out.add(String(r.value));
  }
  return [...out];
}
