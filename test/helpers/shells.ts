/**
 * The three `/bin/sh` a node may have (dash on Debian and Ubuntu, bash, BusyBox's ash on Alpine) as local transports:
 * a batched command run by each, over this machine's real files (integration: it starts processes).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecResult, Transport } from '../../src/transport/types.ts';

export interface Shell {
  name: string;
  argv: readonly string[];
  /** The environment the shell runs in; none given: this process's. */
  env?: NodeJS.ProcessEnv;
}

/**
 * A folder of BusyBox's applets (grep, head, stat, readlink, sed, …) as Alpine has them: Debian's `busybox sh` runs
 * GNU's tools from PATH, so only with these first on PATH does a command meet BusyBox's own options.
 */
function busyboxApplets(): string {
  const dir = mkdtempSync(join(tmpdir(), 'smdoctor-busybox-'));
  for (const applet of execFileSync('/usr/bin/busybox', ['--list'], { encoding: 'utf8' }).split('\n'))
    if (/^[a-z0-9_.[-]+$/.test(applet)) symlinkSync('/usr/bin/busybox', join(dir, applet));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const SHELLS: readonly Shell[] = [
  { name: 'dash', argv: ['/usr/bin/dash'] },
  { name: 'bash', argv: ['/usr/bin/bash'] },
  { name: 'busybox sh', argv: ['/usr/bin/busybox', 'sh'] },
  {
    name: 'busybox sh with its applets (Alpine)',
    argv: ['/usr/bin/busybox', 'sh'],
    env: { ...process.env, PATH: `${busyboxApplets()}:${process.env.PATH ?? '/usr/bin:/bin'}` },
  },
];

/** Runs a command with `shell -c`; stdout as latin1 when binary (bytes kept), as the SSH transport gives it. */
export function runIn(shell: Shell, command: string, binary = true): Promise<ExecResult> {
  const [file, ...pre] = shell.argv as [string, ...string[]];
  return new Promise<ExecResult>((res) =>
    execFile(
      file,
      [...pre, '-c', command],
      { encoding: binary ? 'latin1' : 'utf8', maxBuffer: 256 * 1024 * 1024, ...(shell.env ? { env: shell.env } : {}) },
      (err, stdout, stderr) => res({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

export interface ShellTransport extends Transport {
  commands: string[];
}

/** A transport whose every command is run by this shell on this machine. */
export function shellTransport(shell: Shell, host = 'local'): ShellTransport {
  const t: ShellTransport = {
    host,
    commands: [],
    exec(command, opts) {
      t.commands.push(command);
      return runIn(shell, command, opts?.binary ?? false);
    },
    async readFile() {
      throw new Error('not used by audit');
    },
    async writeFileAtomic() {
      throw new Error('audit never writes');
    },
    async close() {},
  };
  return t;
}
