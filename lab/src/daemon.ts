/**
 * The lab daemon of `smdoctor lab up`: `node dist/daemon.js <dir>` in the lab package (from the sources:
 * `node --conditions=smdoctor-source --import tsx src/daemon.ts <dir>`). Holds the
 * index stores, serves every up node's API and answers labctl until SIGTERM.
 */
import { readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readLayout } from './layout.ts';
import { startServices } from './services.ts';
import { daemonPidFile } from './default.ts';

const dir = resolve(process.argv[2] ?? '.lab');
const layout = await readLayout(dir);
const pidFile = daemonPidFile(dir);
const password = (await readFile(layout.passwordFile, 'utf8')).trim();
const tls = { key: await readFile(layout.tlsKeyFile, 'utf8'), cert: await readFile(layout.tlsCertFile, 'utf8') };
await mkdir(join(dir, 'run'), { recursive: true });
await writeFile(pidFile, `${process.pid}\n`);
const services = await startServices(layout, password, tls);
console.log(
  `${new Date().toISOString()} lab daemon ${process.pid} serving ${layout.hosts.length} hosts (emulated cluster, not a search engine)`,
);

let stopping = false;
async function shutdown(sig: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${new Date().toISOString()} ${sig}: stopping`);
  await services.stop().catch((e: unknown) => console.error(e));
  await rm(pidFile, { force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
