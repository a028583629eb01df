/**
 * Regexes from outside (a check pack) run on V8's linear-time engine: no backtracking, so neither a hostile pattern
 * nor a hostile node's text can make a match slow. The engine itself refuses what it cannot run in linear time
 * (backreferences, lookaround, large counted repetitions, the `i` and `u` flags).
 */
import { setFlagsFromString } from 'node:v8';

let enabled = false;

/** The pattern compiled for the linear-time engine; throws SyntaxError with the engine's reason otherwise. */
export function linearRegExp(source: string, flags = ''): RegExp {
  if (!enabled) {
    // the flag is read when a regex is compiled, so turning it on before the first one is enough
    setFlagsFromString('--enable-experimental-regexp-engine');
    enabled = true;
  }
  return new RegExp(source, `${flags}l`);
}
