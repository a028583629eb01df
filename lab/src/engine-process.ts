/**
 * A stand-in for a node's engine JVM while the node is up: a shell waiting on a pipe from the lab, with the engine's
 * command line as its arguments (main class, `-D<engine>.path.home=`) and the node's environment, so that the host's
 * /proc/<pid>/cmdline and /proc/<pid>/environ read as on a real host. It ends with the lab: its pipe closes.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export function startEngineProcess(engine: string, searchHome: string, env: Record<string, string>): ChildProcess {
  const os = engine === 'opensearch';
  const argv = [
    '-c',
    'read -r _',
    'java',
    '-Xms1g',
    '-Xmx1g',
    `-D${os ? 'opensearch' : 'es'}.path.home=${searchHome}`,
    '-cp',
    `${searchHome}/lib/*`,
    os ? 'org.opensearch.bootstrap.OpenSearch' : 'org.elasticsearch.bootstrap.Elasticsearch',
  ];
  const child = spawn('/bin/sh', argv, { env, stdio: ['pipe', 'ignore', 'ignore'] });
  child.on('error', () => undefined);
  return child;
}

/** The web application's stand-in: its Node.js command line as the package's launcher writes it, its environment. */
export function startWebProcess(webHome: string, env: Record<string, string>): ChildProcess {
  const argv = ['-c', 'read -r _', `${webHome}/bin/../node/bin/node`, `${webHome}/bin/../src/cli/dist`];
  const child = spawn('/bin/sh', argv, { env, stdio: ['pipe', 'ignore', 'ignore'] });
  child.on('error', () => undefined);
  return child;
}

/** Ends the stand-in as a stopped JVM ends; resolves once it has exited. */
export function stopEngineProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.stdin?.end();
  });
}
