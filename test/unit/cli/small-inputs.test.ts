import t from 'tap';
import { join } from 'node:path';
import { parseChecks } from '../../../src/cli/audit-session.ts';
import { intervalSeconds, MAX_SECONDS } from '../../../src/cli/parsers.ts';
import { apiPassword } from '../../../src/cluster/client.ts';
import { hostConfig } from '../../../src/inventory/hostconfig.ts';
import { parseInventory } from '../../../src/inventory/load.ts';
import { runCli } from '../../helpers/cli.ts';

t.test(
  '--timeout past what Node timers hold (2147483 s) is a usage error, not every host failing at once',
  async (t) => {
    t.equal(MAX_SECONDS, 2147483);
    const dir = t.testdir({ 'inv.ini': '[g]\nh ansible_host=127.0.0.1 ansible_port=1\n' });
    const r = await runCli(['audit', '-i', join(dir, 'inv.ini'), '--timeout', '2147484']);
    t.equal(r.code, 2);
    t.match(r.err, /--timeout must be at most 2147483 seconds/);
  },
);

t.test('serve --interval takes decimal seconds from 0.1; nothing else a number could be read from', async (t) => {
  const parse = intervalSeconds('--interval');
  t.equal(parse('0.1'), 0.1);
  t.equal(parse('0.25'), 0.25);
  t.equal(parse('60'), 60);
  for (const bad of ['0.05', '0', '', '-1', '1e3', '0x10', 'Infinity', 'NaN', ' 1', '1.', '.5', '2147484'])
    t.throws(() => parse(bad), { message: /--interval must be/ }, JSON.stringify(bad));
  const dir = t.testdir({ 'inv.ini': '[g]\nh ansible_host=127.0.0.1 ansible_port=1\n' });
  const r = await runCli(['serve', '-i', join(dir, 'inv.ini'), '--interval', '0.01']);
  t.equal(r.code, 2);
  t.match(r.err, /--interval must be a number of seconds, at least 0.1/);
});

t.test("--check '' is a usage error, not every check", async (t) => {
  t.throws(() => parseChecks(''), { code: 'USAGE', message: /--check/ });
  t.throws(() => parseChecks(' , '), { code: 'USAGE' });
  t.equal(parseChecks(undefined), undefined, 'no --check: all checks');
});

t.test('api_password_file pointing at a directory is an input error (exit 2), not a crash', async (t) => {
  const dir = t.testdir({ pw: {} });
  const inv = parseInventory(`[g]\nh api_password_file=${join(dir, 'pw')}\n`, join(dir, 'inv.ini'));
  t.throws(() => apiPassword(hostConfig(inv, 'h', {}), {}), {
    code: 'INPUT',
    message: /api_password_file .*pw of host h cannot be read: it is not a regular file/,
  });
});
