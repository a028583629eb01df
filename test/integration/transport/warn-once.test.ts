/** Warnings of a host's ssh configuration are told once per run: a second run in the same process tells them again. */
import t, { type Test } from 'tap';
import { withRun } from '../../../src/base/run-scope.ts';
import { connectTransport } from '../../../src/transport/connect.ts';
import type { SshTarget } from '../../../src/transport/types.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';

const fleet = await startSshdFleet(t, 1);
const warning = 'ssh configuration /dev/null sets forwardagent, which smdoctor does not support: ignored';
const target: SshTarget = {
  ...fleet.config(0),
  ssh: { configFile: '/dev/null', identityFiles: [], identitiesOnly: false, jumps: [], warnings: [warning] },
};

/** One run (as main() starts one per command) that connects twice and collects what it is told. */
const run = (t: Test) =>
  withRun(async () => {
    const told: string[] = [];
    for (let i = 0; i < 2; i++) {
      const tr = await connectTransport(target, {
        timeout: 10,
        connectTimeout: 60,
        env: {},
        warn: (m) => told.push(m),
      });
      t.equal((await tr.exec('true')).code, 0, 'connected');
      await tr.close();
    }
    return told;
  });

t.test('two runs in one process each tell the warning once', async (t) => {
  t.same(await run(t), [warning], 'the first run: once, not once per connection');
  t.same(await run(t), [warning], 'the second run: told again, once');
});
