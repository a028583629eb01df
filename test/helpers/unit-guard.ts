/** The unit tier starts nothing: a test that spawns a process or opens a socket fails, naming what it tried. */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const refuse = (what: string) => (): never => {
  throw new Error(`a unit test ${what}: move the file to test/integration (the unit tier starts nothing)`);
};

/** Replaces the ways to start a process or a socket for the rest of this process. */
export function guardUnitTier(): void {
  for (const fn of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
    (childProcess as Record<string, unknown>)[fn] = refuse(`started a process (${fn})`);
  }
  net.Server.prototype.listen = refuse('opened a listening socket');
  net.Socket.prototype.connect = refuse('opened a connection');
  syncBuiltinESMExports();
}
