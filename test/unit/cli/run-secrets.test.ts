/** Secrets belong to the run that read them: two runs in one process do not blank (or miss) each other's. */
import t from 'tap';
import { redactText, rememberSecret } from '../../../src/text/index.ts';
import { currentRun, withRun } from '../../../src/base/run-scope.ts';
import { runCli } from '../../helpers/cli.ts';

const ALPHA = 'alpha-Secret-9141';
const BETA = 'beta-Secret-2718';
const inv = (pw: string) =>
  `all:\n  hosts:\n    m1: {ansible_host: 127.0.0.1, ansible_port: 1, ansible_password: ${pw}}\n`;

t.test('a secret read by one run is blanked in its stderr and not in the next run', async (t) => {
  const dir = t.testdir({ 'a.yml': inv(ALPHA), 'b.yml': inv(BETA) });
  // the unknown host name is echoed in the error: it is blanked only where the run read it as a secret
  const a = await runCli(['inventory', '-i', 'a.yml', '--host', ALPHA], { cwd: dir });
  t.equal(a.code, 2);
  t.match(a.err, /no host '\*{8}'/, 'the run that read it blanks it');
  t.notMatch(a.err, ALPHA);
  const b = await runCli(['inventory', '-i', 'b.yml', '--host', ALPHA], { cwd: dir });
  t.equal(b.code, 2);
  t.match(b.err, `no host '${ALPHA}'`, 'a later run never read it, so it is no secret there');
});

t.test('two runs at once keep their secrets apart', async (t) => {
  const dir = t.testdir({ 'a.yml': inv(ALPHA), 'b.yml': inv(BETA) });
  const [a, b] = await Promise.all([
    runCli(['inventory', '-i', 'a.yml', '--host', `${ALPHA}+${BETA}`], { cwd: dir }),
    runCli(['inventory', '-i', 'b.yml', '--host', `${ALPHA}+${BETA}`], { cwd: dir }),
  ]);
  t.match(a.err, `no host '********+${BETA}'`);
  t.match(b.err, `no host '${ALPHA}+********'`);
});

t.test('withRun gives each run its own secret list; the process keeps none of them', async (t) => {
  const seen: string[][] = [];
  await Promise.all(
    [ALPHA, BETA].map((s) =>
      withRun(async () => {
        rememberSecret(s);
        await new Promise((r) => setImmediate(r));
        seen.push([...currentRun().secrets]);
        t.equal(redactText(`${ALPHA} ${BETA}`), s === ALPHA ? `******** ${BETA}` : `${ALPHA} ********`);
      }),
    ),
  );
  t.same(seen.sort(), [[ALPHA], [BETA]]);
  t.equal(redactText(`${ALPHA} ${BETA}`), `${ALPHA} ${BETA}`, 'outside the runs nothing was remembered');
});
