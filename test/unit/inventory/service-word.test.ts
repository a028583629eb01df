import t from 'tap';
import { hostConfig } from '../../../src/inventory/hostconfig.ts';
import { parseInventory } from '../../../src/inventory/load.ts';
import { runCli } from '../../helpers/cli.ts';

const env = { HOME: '/home/tester' };

t.test(
  'restart_command {service}: an engine name that is not a plain word is refused, naming host and variable',
  async (t) => {
    for (const engine of [`o'x`, 'a b', '-rf', '$(id)', 'x"y', '..', 'a;b']) {
      const inv = parseInventory(
        `all:\n  hosts:\n    m1:\n      engine: ${JSON.stringify(engine)}\n      restart_command: "systemctl restart '{service}'"\n`,
        '/srv/inv.yml',
      );
      t.throws(
        () => hostConfig(inv, 'm1', env),
        { code: 'INPUT', message: /host 'm1': engine .*restart_command's \{service\}/ },
        engine,
      );
    }
    // plain words are safe in any quoting, so quoted templates keep working
    const ok = hostConfig(
      parseInventory(
        `all:\n  hosts:\n    m1:\n      engine: open_search-2.x\n      restart_command: "sh -c 'systemctl restart \\"{service}\\"'"\n`,
        '/srv/inv.yml',
      ),
      'm1',
      env,
    );
    t.equal(ok.engine, 'open_search-2.x');
  },
);

t.test('restart_command {service}: the CLI exits 2 before touching any host', async (t) => {
  const dir = t.testdir({
    'inv.yml': `all:\n  hosts:\n    m1:\n      ansible_host: 127.0.0.1\n      ansible_port: 1\n      engine: "o'x"\n      restart_command: "systemctl restart '{service}'"\n      api_url: https://127.0.0.1:1\n`,
  });
  const r = await runCli(['audit', '-i', 'inv.yml', '--timeout', '2'], {
    cwd: dir,
    env: { HOME: dir, SMDOCTOR_API_PASSWORD: 'x' },
  });
  t.equal(r.code, 2, r.err);
  t.match(r.err, /host 'm1': engine "o'x"/);
});
