/**
 * Floats as `ansible-inventory` shows them (issue 31 item 10): PyYAML's and ast.literal_eval's floats written by
 * Python's json.dumps (`25.0`, `1e+16`, `Infinity`), compared number text by number text with the real tool, in YAML
 * and INI inventories, group_vars and host_vars files, nested in lists and mappings; smdoctor still reads them as
 * numbers.
 */
import t from 'tap';
import { chmodSync } from 'node:fs';
import { execa } from 'execa';
import { loadInventory } from '../../../src/inventory/load.ts';
import { hostConfig } from '../../../src/inventory/hostconfig.ts';
import { runCli } from '../../helpers/cli.ts';
import { numbersAsText } from '../../helpers/json-numbers.ts';
import { ansibleEnv, ansibleInventory } from '../../helpers/inventory/ansible.ts';

// [variable, as written in YAML, as written in INI (a host line's k=v), what smdoctor reads]
const cases: Array<[string, string, string | undefined, unknown]> = [
  ['integral', '25.0', '25.0', 25],
  ['negative', '-3.0', '-3.0', -3],
  ['exponent', '1.0e+3', '1e3', 1000],
  ['exponent_no_sign', '1.0e3', '1.0e3', undefined],
  ['exponent_no_dot', '1e3', '1E3', undefined],
  ['zero', '0.0', '0.0', 0],
  ['negative_zero', '-0.0', '-0.0', -0],
  ['underscores', '1_000.0', '1_000.0', 1000],
  ['trailing_dot', '1.', '1.', 1],
  ['leading_dot', '.5', '.5', 0.5],
  ['signed_leading_dot', '-.5', '-.5', undefined],
  ['dot_only', '.', undefined, '.'],
  ['big', '1.0e+16', '1e16', 1e16],
  ['small', '1.0e-5', '1e-5', 1e-5],
  ['sexagesimal', '1:30.0', undefined, 90],
  ['infinity', '.inf', '1e400', Infinity],
  ['minus_infinity', '-.Inf', '-1e400', -Infinity],
  ['nan', '.NaN', undefined, undefined],
  ['plain', '2.5', '2.5', 2.5],
  ['list', '[1.0, 2.5, 3]', '[1.0,2.5,3]', [1, 2.5, 3]],
  ['tuple', '[7.0]', '(7.0,)', [7]],
  ['mapping', '{x: 4.0, y: {z: 5.00}}', undefined, { x: 4, y: { z: 5 } }],
];

const yaml = [
  'all:',
  '  children:',
  '    g:',
  '      hosts:',
  '        yh:',
  ...cases.map(([k, y]) => `          ${k}: ${y}`),
  '          ansible_port: 2222.0',
  '',
].join('\n');
const ini = [
  `ih ${cases.flatMap(([k, , i]) => (i === undefined ? [] : [`${k}=${i}`])).join(' ')} ansible_port=2222.0`,
  '[all:vars]',
  "in_group={'x': 4.0, 'y': [5.0, 1e16]}",
  '',
].join('\n');

t.test('floats are shown as ansible-inventory shows them, and read as numbers', async (t) => {
  const dir = t.testdir({
    'inv.yml': yaml,
    'inv.ini': ini,
    group_vars: { 'g.yml': 'from_group_vars: 7.0\nnested: {a: [8.0]}\n' },
    host_vars: { 'yh.yml': 'from_host_vars: -9.0\n', 'ih.json': '{"from_json": 10.0}\n' },
  });
  for (const [file, host] of [
    ['inv.yml', 'yh'],
    ['inv.ini', 'ih'],
  ] as const) {
    const want = numbersAsText(await ansibleInventory(`${dir}/${file}`, '--host', host)) as Record<string, unknown>;
    const shown = await runCli(['inventory', '-i', file, '--host', host], { cwd: dir });
    t.equal(shown.code, 0, shown.err);
    const got = numbersAsText(shown.out) as Record<string, unknown>;
    t.strictSame(Object.keys(got).sort(), Object.keys(want).sort(), `${file}: the same variables`);
    for (const k of Object.keys(want)) t.strictSame(got[k], want[k], `${file} --host: ${k}`);
    const list = await runCli(['inventory', '-i', file, '--list'], { cwd: dir });
    t.strictSame((numbersAsText(list.out) as any).hosts[host].vars, got, `${file}: --list shows the same`);

    // what smdoctor itself reads: numbers
    const inv = await loadInventory(`${dir}/${file}`);
    const vars = inv.hosts.get(host)!.vars;
    for (const [k, , i, read] of cases)
      if (read !== undefined && (file === 'inv.yml' || i !== undefined)) t.strictSame(vars[k], read, `${file}: ${k}`);
    t.equal(hostConfig(inv, host).port, 2222, `${file}: ansible_port 2222.0 is port 2222`);
  }
});

// the answer of an inventory script, and the same JSON saved as a file (`ansible-inventory --list > inv.json`)
const ANSWER =
  '{"g": {"hosts": ["sh"], "vars": {"v": 25.0, "w": [1e3, -Infinity, 2.5, "3.0"], "x": -0.0, "y": NaN}},' +
  ' "_meta": {"hostvars": {"sh": {"h": 1.0E-5, "i": 7, "j": {"k": 0.0}}}}}';

t.test('floats in JSON as json.loads reads them: a script inventory, a saved --list', async (t) => {
  const dir = t.testdir({
    'inv.sh': `#!/bin/sh\nif [ "$1" = --list ]; then echo '${ANSWER}'; else echo '{}'; fi\n`,
    'saved.json': ANSWER,
  });
  chmodSync(`${dir}/inv.sh`, 0o755);
  const real = await execa('ansible-inventory', ['-i', `${dir}/inv.sh`, '--host', 'sh'], {
    env: { ...ansibleEnv, ANSIBLE_INVENTORY_ENABLED: 'script' },
  });
  const want = numbersAsText(real.stdout);
  for (const file of ['inv.sh', 'saved.json']) {
    const shown = await runCli(['inventory', '-i', file, '--host', 'sh'], { cwd: dir });
    t.equal(shown.code, 0, shown.err);
    t.strictSame(numbersAsText(shown.out), want, `${file}: as ansible-inventory shows the script's answer`);
    const vars = (await loadInventory(`${dir}/${file}`)).hosts.get('sh')!.vars;
    t.strictSame([vars.v, vars.w, vars.j], [25, [1000, -Infinity, 2.5, '3.0'], { k: 0 }], `${file}: read as numbers`);
  }
});

t.test('a float in a template is written as Python writes it, as ansible templates it', async (t) => {
  const dir = t.testdir({
    'inv.yml':
      'all:\n  hosts:\n    t1:\n      ansible_connection: local\n      x: 25.0\n      api_url: "https://h:{{ x }}"\n',
  });
  const real = await execa('ansible', ['all', '-i', `${dir}/inv.yml`, '-m', 'debug', '-a', 'var=api_url'], {
    env: ansibleEnv,
  });
  const want = /"api_url": "([^"]*)"/.exec(real.stdout)?.[1];
  t.equal(want, 'https://h:25.0', 'what ansible makes of it');
  t.equal((await loadInventory(`${dir}/inv.yml`)).hosts.get('t1')!.vars.api_url, want);
});
