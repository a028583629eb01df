/** The arguments of a `smdoctor fix` run as tests give them: one place for the flags every fix test repeats. */

export interface FixArgs {
  /** `--backup-dir`: where the run keeps its backups (left out when undefined). */
  backupDir?: string;
  /** `--timeout` in seconds (left out when undefined). */
  timeout?: number;
  /** `--format`: `json` unless said; null leaves the flag out (the text report). */
  format?: 'json' | 'text' | 'markdown' | 'junit' | null;
  /** `--yes`: true unless said (a test answers no prompt). */
  yes?: boolean;
  /** `--plan`: a reviewed plan to carry out. */
  plan?: string;
}

/** `fix -i <inventory> --yes --format json [--timeout N] [--backup-dir D] [--plan P] ...extra`. */
export function fixArgs(inventory: string, o: FixArgs = {}, ...extra: string[]): string[] {
  const format = o.format === undefined ? 'json' : o.format;
  return [
    'fix',
    '-i',
    inventory,
    ...(o.yes === false ? [] : ['--yes']),
    ...(format ? ['--format', format] : []),
    ...(o.timeout === undefined ? [] : ['--timeout', String(o.timeout)]),
    ...(o.backupDir === undefined ? [] : ['--backup-dir', o.backupDir]),
    ...(o.plan === undefined ? [] : ['--plan', o.plan]),
    ...extra,
  ];
}
