/**
 * The front end of the analysis, run once per query: macro expansion, lexing and parsing. Its result is
 * read both for what the query names (refs.ts) and for the explanation (explain.ts), so a caller that needs
 * both (the stored-query scan) expands, lexes and parses each query once.
 */
import type { RawError } from './errors.ts';
import { lexInto } from './lexer.ts';
import { macroTable, type MacroTable } from './calls.ts';
import { expand, type Expanded } from './macros.ts';
import { parsePacked, type Pipeline } from './parser.ts';
import { shared } from './toks.ts';
import type { MacroDef } from './types.ts';

export interface Prepared {
  original: string;
  exp: Expanded;
  /** Errors of lexing and parsing the expansion (offsets in `expansion`), lexer's first. */
  expErrors: readonly RawError[];
  pipeline: Pipeline;
}

const tables = new WeakMap<readonly MacroDef[], MacroTable>();

/** The macro table of a definitions list, built once per list object. */
export function tableOf(macros: readonly MacroDef[]): MacroTable {
  let t = tables.get(macros);
  if (!t) tables.set(macros, (t = macroTable(macros)));
  return t;
}

export function prepare(query: string, macros: readonly MacroDef[]): Prepared {
  const original = typeof query === 'string' ? query : String(query);
  const exp = expand(original, tableOf(macros));
  const lexErrors = lexInto(exp.expansion, shared);
  const pipeline = parsePacked(exp.expansion, shared);
  const expErrors =
    lexErrors.length === 0
      ? pipeline.errors
      : pipeline.errors.length === 0
        ? lexErrors
        : [...lexErrors, ...pipeline.errors];
  return { original, exp, expErrors, pipeline };
}
