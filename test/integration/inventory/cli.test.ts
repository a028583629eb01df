import t from 'tap';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { ansibleInventory } from '../../helpers/inventory/ansible.ts';
import { docExamples } from '../../helpers/inventory/fixtures.ts';

const run = (cwd: string, ...args: string[]) => runCli(['inventory', ...args], { cwd });

const YML = `all:\n  vars:\n    api_password: hunter2\n  children:\n    masters:\n      hosts:\n        m[1:2]:\n          ansible_host: 10.0.0.9\n    dashboards:\n      hosts:\n        w1:\n          api_url: https://other:9200\n`;

t.test('--list prints hosts, groups, redacted vars and clusters', async (t) => {
  const dir = t.testdir({ 'inv.yml': YML });
  const r = await run(dir, '-i', 'inv.yml', '--list');
  t.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  t.strictSame(Object.keys(j.hosts), ['m1', 'm2', 'w1']);
  t.match(j.hosts.m1, { groups: ['masters'], vars: { api_password: '********', ansible_host: '10.0.0.9' } });
  t.notMatch(r.out, /hunter2/);
  t.strictSame(j.clusters, [
    { api_url: 'https://10.0.0.9:9200', hosts: ['m1', 'm2'] },
    { api_url: 'https://other:9200', hosts: ['w1'] },
  ]);
  const lim = JSON.parse((await run(dir, '-i', 'inv.yml', '--list', '--limit', 'dashboards')).out);
  t.strictSame(Object.keys(lim.hosts), ['w1']);
});

t.test('--graph prints exactly what ansible-inventory --graph prints', async (t) => {
  for (const ex of [docExamples[1], docExamples[5]]) {
    const dir = t.testdir({ 'inv.ini': ex.ini, 'inv.yml': ex.yaml });
    for (const f of ['inv.ini', 'inv.yml']) {
      const r = await run(dir, '-i', f, '--graph');
      t.equal(r.code, 0);
      t.equal(r.out.trimEnd(), (await ansibleInventory(join(dir, f), '--graph')).trimEnd(), `${ex.name} ${f}`);
    }
  }
});

t.test('--host prints merged, redacted variables', async (t) => {
  const dir = t.testdir({ 'inv.yml': YML });
  const r = await run(dir, '-i', 'inv.yml', '--host', 'w1');
  t.equal(r.code, 0);
  t.strictSame(JSON.parse(r.out), { api_password: '********', api_url: 'https://other:9200' });
  t.equal((await run(dir, '-i', 'inv.yml', '--host', 'nope')).code, 2);
});

t.test('exit 2 for usage and input errors, with file:line', async (t) => {
  const dir = t.testdir({
    'inv.yml': YML,
    'bad.ini': '[web]\nh port 22\n',
    'warn.yml': 'all:\n  host:\n    a:\n  hosts:\n    b:\n',
  });
  const cases: Array<[string[], RegExp]> = [
    [['-i', 'inv.yml'], /exactly one of --list, --graph or --host/],
    [['-i', 'inv.yml', '--list', '--graph'], /exactly one/],
    [['--list'], /no inventory: pass -i FILE/],
    [['-i', 'bad.ini', '--list'], /bad\.ini:2:\d+: expected key=value/],
    [['-i', 'inv.yml', '--list', '--limit', 'ghosts'], /'ghosts' matches no host/],
    [['-i', 'missing.yml', '--list'], /missing\.yml: cannot read inventory/],
  ];
  for (const [argv, msg] of cases) {
    const r = await run(dir, ...argv);
    t.equal(r.code, 2, argv.join(' '));
    t.match(r.err, msg, argv.join(' '));
  }
  const w = await run(dir, '-i', 'warn.yml', '--list');
  t.equal(w.code, 0);
  t.match(w.err, /warning: .*warn\.yml:2:3: skipping unexpected key 'host'/);
});

t.test('the lab inventory is the default while the lab is up', async (t) => {
  const dir = t.testdir({ '.lab': { 'inventory.yml': YML, run: { 'daemon.pid': '12345\n' } } });
  const r = await run(dir, '--graph');
  t.equal(r.code, 0);
  t.match(r.out, /@masters:\n {2}\| {2}\|--m1/);
});

t.test('SMDOCTOR_INVENTORY is the default, before a running lab; -i before both', async (t) => {
  const dir = t.testdir({
    'other.yml': 'all:\n  hosts:\n    solo:\n',
    '.lab': { 'inventory.yml': YML, run: { 'daemon.pid': '12345\n' } },
  });
  const env = await runCli(['inventory', '--graph'], { cwd: dir, env: { SMDOCTOR_INVENTORY: 'other.yml' } });
  t.equal(env.code, 0, env.err);
  t.match(env.out, /solo/);
  t.notMatch(env.out, /m1/);
  const flag = await runCli(['inventory', '-i', '.lab/inventory.yml', '--graph'], {
    cwd: dir,
    env: { SMDOCTOR_INVENTORY: 'other.yml' },
  });
  t.match(flag.out, /m1/);
});

t.test('a lab that is down leaves no default inventory', async (t) => {
  const cases: Array<{ name: string; tree: Record<string, Record<string, string>>; err: RegExp }> = [
    {
      name: 'stale inventory of a stopped lab',
      tree: { '.lab': { 'inventory.yml': YML } },
      err: /no inventory: pass -i FILE .*or set SMDOCTOR_INVENTORY/,
    },
    { name: 'no lab at all', tree: {}, err: /no inventory: pass -i FILE/ },
  ];
  for (const c of cases) {
    const r = await run(t.testdir(c.tree), '--graph');
    t.equal(r.code, 2, c.name);
    t.match(r.err, c.err, c.name);
  }
});
