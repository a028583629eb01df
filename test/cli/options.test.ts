/** Option defaults have one source: the help shows them, and a command called without commander gets the same. */
import t from 'tap';
import { DEFAULTS, runOptions } from '../../src/cli/options.ts';
import { runCli } from '../helpers/cli.ts';

t.test('the help of each fleet command shows the defaults of options.ts', async (t) => {
  const audit = (await runCli(['audit', '--help'])).out.replace(/\s+/g, ' ');
  t.match(audit, `hosts gathered in parallel (default: ${DEFAULTS.forks})`);
  t.match(audit, `timeout of each remote command (default: ${DEFAULTS.timeout})`);
  t.match(audit, `(default: ${DEFAULTS.jumpChannels})`);
  t.match(audit, `--history keeps (default: ${DEFAULTS.historyKeep})`);
  const fix = (await runCli(['fix', '--help'])).out.replace(/\s+/g, ' ');
  t.match(fix, `(default: "${DEFAULTS.backupDir}")`);
  t.match(fix, `(default: "${DEFAULTS.planMaxAge}")`);
  const jobs = (await runCli(['migrate', 'jobs', '--help'])).out.replace(/\s+/g, ' ');
  t.match(jobs, `default: "${DEFAULTS.source}")`);
});

t.test('runOptions fills in what a caller left out, and keeps what it gave', async (t) => {
  t.same(runOptions({}), {
    forks: DEFAULTS.forks,
    timeout: DEFAULTS.timeout,
    backupDir: DEFAULTS.backupDir,
    planMaxAge: DEFAULTS.planMaxAge,
    historyKeep: DEFAULTS.historyKeep,
    source: DEFAULTS.source,
  });
  t.match(runOptions({ forks: 3, timeout: 9, source: 'compare', backupDir: '/b' }), {
    forks: 3,
    timeout: 9,
    source: 'compare',
    backupDir: '/b',
  });
});
