/**
 * The lab's front process (large-fleet mode): `node src/front/main.ts <lab dir>` (built: main.js). Listens on
 * every host's SSH and API address until SIGTERM, then ends every sshd it started.
 */
import { createWriteStream, openSync } from 'node:fs';
import { rename, rm, writeFile, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { downAppliedFile, downFile, frontConfigFile, readDown, type FrontConfig } from './config.ts';
import { startFrontServer } from './server.ts';

const dir = resolve(process.argv[2] ?? '.lab');
const cfg = JSON.parse(await readFile(frontConfigFile(dir), 'utf8')) as FrontConfig;
await writeFile(cfg.pidFile, `${process.pid}\n`);
const logFd = openSync(cfg.logFile, 'a');
const links = createWriteStream(cfg.linksFile, { flags: 'a' });
const server = await startFrontServer(cfg, logFd, (r) => links.write(`${JSON.stringify(r)}\n`));

let stopping = false;
async function shutdown(sig: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${new Date().toISOString()} ${sig}: stopping`);
  await server.close().catch((e: unknown) => console.error(e));
  await new Promise((r) => links.end(r));
  await rm(cfg.pidFile, { force: true });
  await rm(cfg.readyFile, { force: true });
  process.exit(0);
}
// SIGHUP: the down file again; one change at a time, and the applied names written (whole) when done
let downs = Promise.resolve();
process.on('SIGHUP', () => {
  downs = downs
    .then(async () => {
      const names = readDown(downFile(dir));
      await server.setDown(new Set(names));
      const applied = downAppliedFile(dir);
      await writeFile(`${applied}.tmp`, names.map((n) => `${n}\n`).join(''));
      await rename(`${applied}.tmp`, applied);
      console.log(`${new Date().toISOString()} SIGHUP: ${names.length} host(s) down`);
    })
    .catch(console.error);
});
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
// ready once every signal has its handler: a SIGHUP before would end the process
await writeFile(cfg.readyFile, `${process.pid}\n`);
console.log(`${new Date().toISOString()} lab front ${process.pid} serving ${cfg.hosts.length} hosts`);
