/** Alias bombs, template bombs and symlink loops are input errors (exit 2) naming the file, not hangs or crashes. */
import t from 'tap';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { parseScenario } from '../../../lab/src/scenario-parse.ts';
import { InputError } from '../../../src/base/errors.ts';

// the "billion laughs": nine levels of nine aliases, 9^9 values from ten lines
const BOMB = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
  .concat(Array.from('bcdefghi', (c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`))
  .join('\n');
const HOST = 'all:\n  hosts:\n    h1:\n      ansible_host: 127.0.0.1\n';
const indent = (s: string, pad: string) => s.replace(/^/gm, pad);

// each case: files to write (a path ending in '@' is a symlink to the text), and the file the error must name
const CASES: Array<{ what: string; files: Record<string, string>; names: string; why: RegExp }> = [
  {
    what: 'alias bomb in group_vars',
    files: { 'inv.yml': HOST, 'group_vars/all.yml': BOMB },
    names: 'group_vars/all.yml',
    why: /aliases/,
  },
  {
    what: 'alias bomb in the inventory file',
    files: { 'inv.yml': `${HOST}  vars:\n${indent(BOMB, '    ')}\n` },
    names: 'inv.yml',
    why: /aliases/,
  },
  {
    what: 'alias bomb in a host variable of the inventory file',
    files: { 'inv.yml': `all:\n  hosts:\n    h1:\n${indent(BOMB, '      ')}\n` },
    names: 'inv.yml',
    why: /aliases/,
  },
  {
    what: 'template bomb',
    // templates resolve when read: the bomb sits behind a variable smdoctor reads
    files: {
      'inv.yml': `${HOST}  vars:\n    ansible_user: "{{ v0 }}"\n${Array.from({ length: 40 }, (_, i) => `    v${i}: "{{ v${i + 1} }}{{ v${i + 1} }}"\n`).join('')}    v40: xxxxxxxx\n`,
    },
    names: 'inv.yml',
    why: /grows past 1 MiB/,
  },
  {
    what: 'symlink loop of files under group_vars',
    files: { 'inv.yml': HOST, 'group_vars/all@': 'group_vars/loop', 'group_vars/loop@': 'group_vars/all' },
    names: 'group_vars/all',
    why: /loop/,
  },
  {
    what: 'a directory under group_vars linking back to itself',
    files: { 'inv.yml': HOST, 'group_vars/all/main.yml': 'x: 1\n', 'group_vars/all/self@': 'group_vars/all' },
    names: 'group_vars/all/self',
    why: /loop/,
  },
];

t.test('inventory bombs and loops: exit 2 naming the file and the cause', async (t) => {
  for (const c of CASES) {
    const dir = t.testdir({});
    for (const [name, text] of Object.entries(c.files)) {
      const path = join(dir, name.replace(/@$/, ''));
      mkdirSync(join(path, '..'), { recursive: true });
      if (name.endsWith('@')) symlinkSync(join(dir, text), path);
      else writeFileSync(path, text);
    }
    const r = await runCli(['inventory', '--list', '-i', join(dir, 'inv.yml')]);
    t.equal(r.code, 2, `${c.what}: exit 2 (${r.err.slice(0, 200)})`);
    t.match(r.err, `${join(dir, c.names)}`, `${c.what}: names the file`);
    t.match(r.err, c.why, `${c.what}: says why`);
    t.notMatch(r.err, /internal error/);
  }
});

t.test('the same template bomb on a winrm host is listed as written: nothing is worked out', async (t) => {
  const bomb = CASES.find((c) => c.what === 'template bomb')!.files['inv.yml']!;
  const dir = t.testdir({ 'inv.yml': bomb.replace('ansible_host: 127.0.0.1', 'ansible_connection: winrm') });
  for (const args of [['--list'], ['--host', 'h1']]) {
    const r = await runCli(['inventory', ...args, '-i', join(dir, 'inv.yml')]);
    t.equal(r.code, 0, r.err);
    const vars = (args[0] === '--list' ? JSON.parse(r.out).hosts.h1.vars : JSON.parse(r.out)) as Record<
      string,
      unknown
    >;
    t.equal(vars.ansible_user, '{{ v0 }}', `${args[0]}: as written`);
  }
  const audit = await runCli(['audit', '-i', join(dir, 'inv.yml')]);
  t.equal(audit.code, 2, 'reaching it is refused');
  t.match(audit.err, /ansible_connection 'winrm' is not supported/);
});

t.test('macros files and scenario files have the same alias limit', async (t) => {
  const dir = t.testdir({ 'macros.yml': `${BOMB}\n`, 'm.json': '{}' });
  const r = await runCli(['migrate', 'explain', '--mappings', 'm.json', '--macros', 'macros.yml', 'source x'], {
    cwd: dir,
  });
  t.equal(r.code, 2, r.err);
  t.match(r.err, /macros\.yml.*aliases/);
  const err = (() => {
    try {
      parseScenario(`${BOMB}\n`, 'bomb.yml');
    } catch (e) {
      return e;
    }
  })();
  t.ok(err instanceof InputError, String(err));
  t.equal((err as InputError).pos?.file, 'bomb.yml');
});
