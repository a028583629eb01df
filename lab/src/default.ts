/** Whether a lab directory's lab is up, by its daemon's pid file alone: cheap enough for every command's start. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The pid file the daemon writes at start and removes at exit (`lab down`). */
export const daemonPidFile = (dir: string): string => join(dir, 'run', 'daemon.pid');

/** The inventory of the lab in `dir` while that lab is up, else null; a stale inventory is no default. */
export function upLabInventory(dir: string): string | null {
  const inventory = join(dir, 'inventory.yml');
  return existsSync(inventory) && existsSync(daemonPidFile(dir)) ? inventory : null;
}
