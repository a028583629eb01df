/** ProxyCommand: the command's standard input and output are the connection to the SSH server. */
import { spawn } from 'node:child_process';
import { Duplex } from 'node:stream';

/** Runs `command` with /bin/sh (tokens already substituted); the stream ends, and the command is killed, together. */
export function proxyCommandSocket(command: string, env: NodeJS.ProcessEnv): Duplex {
  const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], env });
  const sock = Duplex.from({ readable: child.stdout, writable: child.stdin });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  child.once('error', (err) => sock.destroy(new Error(`ProxyCommand '${command}' could not start: ${err.message}`)));
  // the command's own words explain a failed hop better than a closed stream does
  child.once('close', (code, signal) => {
    if (!sock.destroyed && (code !== 0 || stderr)) {
      sock.destroy(
        new Error(
          `ProxyCommand '${command}' exited (${signal ?? code})${stderr.trim() ? `: ${stderr.trim().split('\n').pop()}` : ''}`,
        ),
      );
    }
  });
  sock.once('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  return sock;
}
