/**
 * Ctrl-C, SIGTERM and SIGHUP while fix (or migrate --apply) works: the first stops new steps (rewrites), the second
 * restores allocation at once.
 */
import { sayTo, type CliContext } from './context.ts';

export interface StopSignals {
  /** Aborted by the first signal: no new step starts, waits end, the allocation setting is restored. */
  stop: AbortSignal;
  /** Aborted by the second: a restarting node is no longer waited for before the restore. */
  urgent: AbortSignal;
  dispose(): void;
}

// SIGHUP: the SSH session to the admin box dropped; it stops the run as Ctrl-C does, never mid-restart
export const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** What the first and a second signal say; the default is fix's. */
export interface StopWords {
  first: string;
  again: string;
}

const FIX_WORDS: StopWords = {
  first:
    'stopping after the current step (a node that is restarting is waited for, then the allocation setting is restored; interrupt again to restore at once)',
  again: 'restoring the allocation setting at once',
};

export function stopOnSignals(
  ctx: CliContext,
  signals: NodeJS.Signals[] = STOP_SIGNALS,
  words: StopWords = FIX_WORDS,
): StopSignals {
  const stopper = new AbortController();
  const urgent = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => {
    // a lost terminal must not turn the next progress line into a crash: the report still goes to -o
    if (sig === 'SIGHUP') for (const s of [ctx.stdout, ctx.stderr]) s.on('error', () => undefined);
    if (!stopper.signal.aborted) sayTo(ctx.stderr)(words.first, sig);
    else if (!urgent.signal.aborted) {
      sayTo(ctx.stderr)(words.again, `${sig} again`);
      urgent.abort();
    }
    stopper.abort();
  };
  for (const s of signals) process.on(s, onSignal);
  return {
    stop: stopper.signal,
    urgent: urgent.signal,
    dispose: () => {
      for (const s of signals) process.off(s, onSignal);
    },
  };
}
