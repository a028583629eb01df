/** Offline inputs of `migrate explain`: a saved mappings response and a macro definitions file. */

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { withAliasLimit } from '../base/yaml-aliases.ts';
import { InputError } from '../base/errors.ts';
import type { MacroDef, RawMappings } from '../sml/index.ts';

async function readText(file: string, cwd: string, what: string): Promise<string> {
  try {
    return await readFile(resolve(cwd, file), 'utf8');
  } catch (cause) {
    throw new InputError(`cannot read ${what}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`, {
      pos: { file },
      cause,
    });
  }
}

/** Line and column of a JSON.parse failure, from the offset V8 puts in its message. */
function jsonPos(text: string, err: unknown): { line?: number; col?: number } {
  const m = /position (\d+)/.exec(err instanceof Error ? err.message : '');
  if (!m) {
    // some V8 messages carry no offset: the YAML reader (a JSON superset) locates the fault instead
    const lp = parseDocument(text).errors[0]?.linePos?.[0];
    return lp ? { line: lp.line, col: lp.col } : {};
  }
  const off = Math.min(Number(m[1]), text.length);
  const before = text.slice(0, off);
  const line = before.split('\n').length;
  return { line, col: off - before.lastIndexOf('\n') };
}

function parseJsonInput(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new InputError(`${what} is not valid JSON: ${(cause as Error).message}`, {
      pos: { file, ...jsonPos(text, cause) },
      cause,
    });
  }
}

/** A saved `GET _mapping` or `GET _mapping/field/…` response: an object of index → { mappings }. */
export function parseMappings(text: string, file: string): RawMappings {
  const data = parseJsonInput(text, file, 'mappings file');
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new InputError(
      'mappings file must hold a GET _mapping or GET _mapping/field response (an object keyed by index)',
      { pos: { file } },
    );
  }
  for (const [index, entry] of Object.entries(data)) {
    const m = (entry as { mappings?: unknown } | null)?.mappings;
    if (typeof entry !== 'object' || entry === null || (m !== undefined && (typeof m !== 'object' || m === null))) {
      throw new InputError(`mappings file: index ${index} has no "mappings" object`, { pos: { file } });
    }
  }
  return data as RawMappings;
}

export async function loadMappingsFile(file: string, cwd: string): Promise<RawMappings> {
  return parseMappings(await readText(file, cwd, 'mappings file'), file);
}

/** YAML (or JSON, which YAML reads too) list of `{name, args, definition}`. */
export function parseMacros(text: string, file: string): MacroDef[] {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const lp = e.linePos?.[0];
    throw new InputError(`macros file is not valid YAML/JSON: ${e.message.split('\n')[0]}`, {
      pos: { file, line: lp?.line, col: lp?.col },
    });
  }
  return validateMacros(
    withAliasLimit(file, (o) => doc.toJS(o)),
    (i) => {
      const node = (doc.contents as { items?: Array<{ range?: [number, number] }> } | null)?.items?.[i];
      const line = node?.range ? text.slice(0, node.range[0]).split('\n').length : undefined;
      return { file, line };
    },
  );
}

/** Checks the list shape; `args` may be omitted for macros without arguments. */
export function validateMacros(data: unknown, where: (i: number) => { file: string; line?: number }): MacroDef[] {
  if (data === null || data === undefined) return [];
  if (!Array.isArray(data))
    throw new InputError('macros must be a list of {name, args, definition}', { pos: where(-1) });
  return data.map((d: unknown, i) => {
    const o = d as Record<string, unknown> | null;
    const args = o?.args ?? [];
    if (
      typeof o !== 'object' ||
      o === null ||
      typeof o.name !== 'string' ||
      o.name === '' ||
      typeof o.definition !== 'string' ||
      !Array.isArray(args) ||
      !args.every((a) => typeof a === 'string')
    ) {
      throw new InputError(`macro #${i + 1} needs name (string), args (list of strings) and definition (string)`, {
        pos: where(i),
      });
    }
    return { name: o.name, args: args as string[], definition: o.definition };
  });
}

export async function loadMacrosFile(file: string, cwd: string): Promise<MacroDef[]> {
  return parseMacros(await readText(file, cwd, 'macros file'), file);
}

export { readText };
