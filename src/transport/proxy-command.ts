/** ProxyCommand: the command's standard input and output are the connection to the SSH server. */
import { spawn } from 'node:child_process';
import { Duplex } from 'node:stream';

/** Why a route's stream ended: the ProxyCommand's own words, kept for the connect that was waiting on it. */
const endings = new WeakMap<Duplex, Error>();

/** The reason a stream given as `sock` closed, when it was a ProxyCommand that said one. */
export const closedReason = (sock: Duplex): Error | undefined => endings.get(sock);

/** Runs `command` with /bin/sh (tokens already substituted); the stream ends, and the command is killed, together. */
export function proxyCommandSocket(command: string, env: NodeJS.ProcessEnv): Duplex {
  const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'], env });
  const sock = Duplex.from({ readable: child.stdout, writable: child.stdin });
  // every error of the stream is kept, never thrown: a dead bastion makes this one host unreachable, nothing else
  sock.on('error', (err: Error) => {
    if (!endings.has(sock)) endings.set(sock, err);
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  child.once('error', (err) => sock.destroy(new Error(`ProxyCommand '${command}' could not start: ${err.message}`)));
  // the command's own words explain a failed hop better than a closed stream does
  child.once('close', (code, signal) => {
    if (code !== 0 || stderr) {
      const why = new Error(
        `ProxyCommand '${command}' exited (${signal ?? code})${stderr.trim() ? `: ${stderr.trim().split('\n').pop()}` : ''}`,
      );
      endings.set(sock, why);
      if (!sock.destroyed) sock.destroy(why);
    }
  });
  sock.once('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  return sock;
}
