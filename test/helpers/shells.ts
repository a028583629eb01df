/**
 * The three `/bin/sh` a node may have (dash on Debian and Ubuntu, bash, BusyBox's ash on Alpine) as local transports:
 * a batched command run by each, over this machine's real files (integration: it starts processes).
 */
import { execFile } from 'node:child_process';
import type { ExecResult, Transport } from '../../src/transport/types.ts';

export interface Shell {
  name: string;
  argv: readonly string[];
}

export const SHELLS: readonly Shell[] = [
  { name: 'dash', argv: ['/usr/bin/dash'] },
  { name: 'bash', argv: ['/usr/bin/bash'] },
  { name: 'busybox sh', argv: ['/usr/bin/busybox', 'sh'] },
];

/** Runs a command with `shell -c`; stdout as latin1 when binary (bytes kept), as the SSH transport gives it. */
export function runIn(shell: Shell, command: string, binary = true): Promise<ExecResult> {
  const [file, ...pre] = shell.argv as [string, ...string[]];
  return new Promise<ExecResult>((res) =>
    execFile(
      file,
      [...pre, '-c', command],
      { encoding: binary ? 'latin1' : 'utf8', maxBuffer: 256 * 1024 * 1024 },
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
