/** A transport that runs commands in a local sh over a planted tree (integration: it starts processes). */
import { execFile } from 'node:child_process';
import type { ExecOptions, ExecResult, Transport } from '../../../src/transport/types.ts';
import type { HostTree } from './fakes.ts';

export interface FakeTransport extends Transport {
  calls: Array<{ command: string; opts?: ExecOptions }>;
  closed: number;
}

/** Runs commands in a local sh, except the keystore tool, which answers from the tree. */
export function fakeTransport(host: string, tree: HostTree): FakeTransport {
  const t: FakeTransport = {
    host,
    calls: [],
    closed: 0,
    async exec(command, opts) {
      t.calls.push({ command, ...(opts ? { opts } : {}) });
      if (/-keystore list$/.test(command)) {
        if (tree.keystore === 'missing' || tree.keystore === undefined)
          return { code: 65, stdout: '', stderr: 'ERROR: keystore not found' };
        return { code: 0, stdout: `${tree.keystore.join('\n')}\n`, stderr: '' };
      }
      return new Promise<ExecResult>((res) => {
        execFile('sh', ['-c', command], { encoding: opts?.binary ? 'latin1' : 'utf8' }, (err, stdout, stderr) =>
          res({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
        );
      });
    },
    async readFile() {
      throw new Error('not used by audit');
    },
    async writeFileAtomic() {
      throw new Error('audit never writes');
    },
    async close() {
      t.closed++;
    },
  };
  return t;
}
