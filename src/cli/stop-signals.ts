/** Ctrl-C, SIGTERM and SIGHUP while fix works: the first stops new steps, the second restores allocation at once. */
import type { CliContext } from './context.ts';

export interface StopSignals {
  /** Aborted by the first signal: no new step starts, waits end, the allocation setting is restored. */
  stop: AbortSignal;
  /** Aborted by the second: a restarting node is no longer waited for before the restore. */
  urgent: AbortSignal;
  dispose(): void;
}

// SIGHUP: the SSH session to the admin box dropped; it stops the run as Ctrl-C does, never mid-restart
export const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function stopOnSignals(ctx: CliContext, signals: NodeJS.Signals[] = STOP_SIGNALS): StopSignals {
  const stopper = new AbortController();
  const urgent = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => {
    // a lost terminal must not turn the next progress line into a crash: the report still goes to -o
    if (sig === 'SIGHUP') for (const s of [ctx.stdout, ctx.stderr]) s.on('error', () => undefined);
    if (!stopper.signal.aborted)
      ctx.stderr.write(
        `smdoctor: ${sig}: stopping after the current step (a node that is restarting is waited for, then the allocation setting is restored; interrupt again to restore at once)\n`,
      );
    else if (!urgent.signal.aborted) {
      ctx.stderr.write(`smdoctor: ${sig} again: restoring the allocation setting at once\n`);
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
