/**
 * The one table of option defaults: the CLI's flags show and apply them, and a library caller's entry reads the same
 * values here (a lower layer takes each as a required field, never a literal of its own).
 */
export const DEFAULTS = {
  forks: 20,
  /** Seconds per remote command and REST request. */
  timeout: 60,
  jumpChannels: 10,
  /** -v counts up from here. */
  verbose: 0,
  historyKeep: 50,
  backupDir: '~/.smdoctor/backups',
  planMaxAge: '24h',
  source: 'local',
  labDir: '.lab',
  scenario: 'broken',
  layout: 'inventory',
  /** serve: seconds between the end of one audit cycle and the start of the next (±10 % jitter). */
  interval: 60,
  fullEvery: 60,
  listen: '127.0.0.1:9720',
  logFormat: 'text',
} as const;
