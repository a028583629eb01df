/**
 * The one place a command listens to process signals. Ctrl-C, SIGTERM and SIGHUP while fix (or migrate --apply)
 * works: the first stops new steps (rewrites), the second restores allocation at once. serve: SIGINT and SIGTERM stop
 * it after the cycle under way, SIGHUP reloads.
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

export interface SignalUse {
  /** How the words are said (serve's log lines); default standard error. */
  say?: (m: string, label: string) => void;
  /** SIGHUP reloads (serve) instead of stopping. */
  reload?: () => void;
}

export function stopOnSignals(
  ctx: CliContext,
  signals: NodeJS.Signals[] = STOP_SIGNALS,
  words: StopWords = FIX_WORDS,
  use: SignalUse = {},
): StopSignals {
  const stopper = new AbortController();
  const urgent = new AbortController();
  const say = use.say ?? sayTo(ctx.stderr);
  const onSignal = (sig: NodeJS.Signals): void => {
    if (sig === 'SIGHUP' && use.reload) return use.reload();
    // a lost terminal must not turn the next progress line into a crash: the report still goes to -o
    if (sig === 'SIGHUP') for (const s of [ctx.stdout, ctx.stderr]) s.on('error', () => undefined);
    if (!stopper.signal.aborted) say(words.first, sig);
    else if (!urgent.signal.aborted) {
      say(words.again, `${sig} again`);
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
