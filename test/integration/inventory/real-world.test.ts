/**
 * Real inventories from public repositories (test/fixtures/real-world/inventories/cases.json names each one's
 * repository, source and commit) read by smdoctor and by `ansible-inventory`: hosts, groups, variables as written,
 * the --graph text, and what `inventory`, `audit` and `fix` make of them.
 */
import t from 'tap';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { stringifyJson } from '../../../src/base/json-text.ts';
import { rawVars } from '../../../src/inventory/lazy.ts';
import { openInventory } from '../../../src/inventory/open.ts';
import { graphText } from '../../../src/inventory/render.ts';
import { runCli } from '../../helpers/cli.ts';
import { numbersAsText } from '../../helpers/json-numbers.ts';
import { ansibleEnv, hostGroups } from '../../helpers/inventory/ansible.ts';

interface RealCase {
  name: string;
  repo: string;
  commit: string;
  source: string;
  symlinks: { path: string; target: string }[];
  why: string;
}
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'real-world', 'inventories');
const cases = JSON.parse(readFileSync(join(FIXTURES, 'cases.json'), 'utf8')) as RealCase[];
const root = mkdtempSync(join(tmpdir(), 'smd-real-inv-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
// ansible.cfg files name vault password files that are not in the repositories: both tools get a dummy one
const dummy = join(root, 'dummy-pass');
writeFileSync(dummy, 'dummy\n');
const env = { HOME: root, ANSIBLE_VAULT_PASSWORD_FILE: dummy };

const ansible = async (dir: string, source: string, arg: string) => {
  const r = await execa('ansible-inventory', ['-i', source, arg], {
    cwd: dir,
    env: { ...ansibleEnv, ...env },
    extendEnv: false,
    reject: false,
  });
  if (r.exitCode !== 0) throw new Error(`ansible-inventory ${arg}: ${r.stderr}`);
  return r.stdout;
};

// key order is not compared: ansible-inventory sorts keys
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x,
  );

for (const c of cases) {
  t.test(`${c.repo}@${c.commit.slice(0, 8)} ${c.source}: ${c.why}`, async (t) => {
    const dir = join(root, c.name);
    cpSync(join(FIXTURES, c.name), dir, { recursive: true, verbatimSymlinks: true });
    const inv = await openInventory({ inventory: [c.source] }, { cwd: dir, env });
    // numbers compared as written: 25.0 is not 25
    const list = numbersAsText(await ansible(dir, c.source, '--list')) as Record<string, any>;
    const groups = hostGroups(list);
    t.strictSame(Object.fromEntries([...inv.hosts].map(([h, x]) => [h, x.groups])), groups, 'hosts and groups');
    const vars = Object.fromEntries([...inv.hosts].map(([h, x]) => [h, numbersAsText(stringifyJson(rawVars(x.vars)))]));
    const want = Object.fromEntries(Object.keys(groups).map((h) => [h, list._meta?.hostvars?.[h] ?? {}]));
    t.equal(canon(vars), canon(want), 'variables as written');
    t.equal(graphText(inv, [...inv.hosts.keys()]), `${await ansible(dir, c.source, '--graph')}\n`, '--graph');
    for (const l of c.symlinks)
      t.ok(
        inv.warnings?.some((w) => w.pos.file === join(dir, l.path) && w.message.includes(l.target)),
        `the dangling link ${l.path} is named in a warning`,
      );
  });
}

t.test(
  'an inventory of groups only: listed as ansible-inventory lists it; audit and fix have nothing to do',
  async (t) => {
    const dir = join(root, 'groups-only');
    cpSync(join(FIXTURES, 'kubespray_sample'), dir, { recursive: true });
    const i = ['-i', 'inventory/sample/inventory.ini'];
    const list = await runCli(['inventory', ...i, '--list'], { cwd: dir, env });
    t.equal(list.code, 0, list.err);
    t.strictSame(JSON.parse(list.out), { hosts: {}, clusters: [] });
    const graph = await runCli(['inventory', ...i, '--graph'], { cwd: dir, env });
    t.equal(graph.out, `${await ansible(dir, i[1]!, '--graph')}\n`);
    for (const cmd of [['audit'], ['fix', '--yes']]) {
      const r = await runCli([...cmd, ...i], { cwd: dir, env });
      t.equal(r.code, 2, `${cmd[0]}: exit 2`);
      t.match(r.err, /has no hosts .*commented out.*nothing to audit/, `${cmd[0]} says why`);
    }
  },
);

t.test(
  'a winrm group with templates over a host the inventory lacks: --list and --host as ansible-inventory',
  async (t) => {
    const dir = join(root, 'winrm-listed');
    cpSync(join(FIXTURES, 'cyberark_pas'), dir, { recursive: true });
    const i = ['-i', 'inventories/production/hosts'];
    const want = JSON.parse(await ansible(dir, i[1]!, '--list')) as { _meta: { hostvars: Record<string, object> } };
    const list = await runCli(['inventory', ...i, '--list'], { cwd: dir, env });
    t.equal(list.code, 0, list.err);
    const got = JSON.parse(list.out) as { hosts: Record<string, { vars: Record<string, unknown> }>; clusters: unknown };
    // the passwords are not shown, whatever they hold
    const secret = /password/;
    for (const [h, vars] of Object.entries(want._meta.hostvars)) {
      const shown = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, secret.test(k) ? '********' : v]));
      t.strictSame(got.hosts[h]?.vars, shown, h);
      const one = await runCli(['inventory', ...i, '--host', h], { cwd: dir, env });
      t.strictSame(JSON.parse(one.out), shown, `--host ${h}`);
    }
    t.strictSame(got.clusters, [], 'its one host is winrm: no cluster to audit');
    const audit = await runCli(['audit', ...i], { cwd: dir, env });
    t.equal(audit.code, 2, 'reaching it is refused');
  },
);
