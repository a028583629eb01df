/** What belongs to one command run: the secrets it read and the warnings it gave, apart from any other run in the process. */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RunScope {
  /** Secret values read (API password, inventory secrets): blanked wherever they show up. */
  readonly secrets: Set<string>;
  /** Values that came out of a vault (or were built from one): secret by what they are. */
  readonly vaulted: Set<string>;
  /** Warnings already given once. */
  readonly warned: Set<string>;
}

export const newRunScope = (): RunScope => ({ secrets: new Set(), vaulted: new Set(), warned: new Set() });

const runs = new AsyncLocalStorage<RunScope>();
// code called outside any run (a library caller that did not start one) shares this scope, as before runs existed
const outside = newRunScope();

/** Runs `fn` (and everything it starts) in a scope of its own; main() starts one per command. */
export function withRun<T>(fn: () => T, scope: RunScope = newRunScope()): T {
  return runs.run(scope, fn);
}

/** The scope of the run this code belongs to. */
export const currentRun = (): RunScope => runs.getStore() ?? outside;
