/** The one signal handler: fix's stop and urgent stop, serve's reload on SIGHUP; nothing left listening after. */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { stopOnSignals } from '../../../src/cli/stop-signals.ts';
import type { CliContext } from '../../../src/cli/context.ts';

const ctx = (): CliContext & { err: () => string } => {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (d: Buffer) => (text += d.toString()));
  return { stdout: new PassThrough(), stderr, stdin: new PassThrough(), env: {}, cwd: '/', err: () => text };
};
// listeners of the signals used here, as the process had them before the test
const listening = () => ['SIGUSR2', 'SIGHUP'].map((s) => process.listenerCount(s));

t.test('serve: SIGHUP reloads and never stops; the first stop signal stops, the second is urgent', async (t) => {
  const before = listening();
  const said: string[] = [];
  let reloads = 0;
  const s = stopOnSignals(
    ctx(),
    ['SIGUSR2', 'SIGHUP'],
    { first: 'stopping after the cycle under way', again: 'still stopping' },
    { say: (m, sig) => said.push(`${sig}: ${m}`), reload: () => reloads++ },
  );
  t.teardown(() => s.dispose());
  for (let i = 0; i < 100; i++) process.emit('SIGHUP', 'SIGHUP');
  t.equal(reloads, 100, 'each SIGHUP asks for a reload (serve makes one of a storm)');
  t.equal(s.stop.aborted, false, 'a SIGHUP never stops serve');
  process.emit('SIGUSR2', 'SIGUSR2');
  t.equal(s.stop.aborted, true);
  t.equal(s.urgent.aborted, false);
  process.emit('SIGUSR2', 'SIGUSR2');
  t.equal(s.urgent.aborted, true);
  t.same(said, ['SIGUSR2: stopping after the cycle under way', 'SIGUSR2 again: still stopping']);
  s.dispose();
  t.same(listening(), before, 'dispose leaves no listener');
});

t.test('fix: SIGHUP stops as Ctrl-C does, said on standard error', async (t) => {
  const c = ctx();
  const s = stopOnSignals(c, ['SIGHUP']);
  t.teardown(() => s.dispose());
  process.emit('SIGHUP', 'SIGHUP');
  t.equal(s.stop.aborted, true);
  t.match(c.err(), /^smdoctor: SIGHUP: stopping after the current step/);
});
