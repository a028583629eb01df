/** Ctrl-C (or a lost terminal) while a node restarts: the wait ends, the allocation setting is restored before exit. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { allocation, inventoryWith, rollingLab } from '../../helpers/fix/rolling.ts';

const BIN = new URL('../../../bin/smdoctor.js', import.meta.url).pathname;

// SIGHUP: the SSH session to the admin box dropped; it must act as Ctrl-C does
for (const sig of ['SIGINT', 'SIGHUP'] as const)
  t.test(`${sig} during the wait: allocation restored, report written, exit 3`, async (t) => {
    const { lab, api } = await rollingLab(t);
    const inv = await inventoryWith(lab, 'n2', 'sleep 120');
    const child = spawn(
      process.execPath,
      [BIN, 'fix', '-i', inv, '--yes', '--format', 'json', '--timeout', '60', '--backup-dir', join(lab.dir, 'backups')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    let held: Promise<unknown> | null = null;
    child.stderr.on('data', (d) => {
      err += d;
      // once n2's restart is under way, allocation must be held at primaries; then Ctrl-C
      if (held === null && /n2: restarting/.test(err)) {
        held = allocation(api).then((a) => {
          t.same(a, { persistent: 'primaries', transient: null }, 'held while n2 restarts');
          child.kill(sig);
        });
      }
    });
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    await held;
    t.equal(code, 3, err);
    t.match(err, /stopping/);
    t.same(await allocation(api), { persistent: null, transient: null }, 'restored to unset');
    const report = JSON.parse(out);
    const a = report.clusters[0].checks
      .flatMap((k: { actions: unknown[] }) => k.actions)
      .find((x: { host?: string; type: string }) => x.host === 'n2' && x.type === 'restart-service');
    t.match(a, { status: 'failed', error: /interrupted.*allocation restored/ });
  });
