/** Several sources, vars directories, script JSON, templates, and every input error with its file and line. */
import t from 'tap';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { loadInventory } from '../../../src/inventory/load.ts';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';
import { runCli } from '../../helpers/cli.ts';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'smd-src-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

async function ansibleHostvars(args: string[], cwd: string): Promise<Record<string, Record<string, unknown>>> {
  const r = await execa('ansible-inventory', [...args, '--list'], {
    cwd,
    env: { ...ansibleEnv, ANSIBLE_INVENTORY_ENABLED: 'script,yaml,ini' },
  });
  return JSON.parse(r.stdout)._meta.hostvars;
}

t.test(
  'two sources, each with its group_vars; a JSON file in the script shape; same as ansible-inventory',
  async (t) => {
    const root = tree({
      'a/hosts.yml': 'web:\n  hosts:\n    w1:\n      x: a-host\n    w2:\n  vars:\n    y: a-group\n',
      'a/group_vars/all': 'z: a-all\nshared: from-a\n',
      'a/group_vars/web/10.yml': 'k: ten\n',
      'a/group_vars/web/20.yaml': 'k: twenty\n',
      'a/group_vars/web/notes.txt': 'k: ignored\n',
      'a/host_vars/w2.json': '{"x": "w2-json"}',
      'b/saved.json': JSON.stringify({
        web: { hosts: ['w3'], vars: { y: 'b-group' } },
        db: ['d1'],
        _meta: { hostvars: { w1: { x: 'b-host' }, d1: { p: 1 } } },
      }),
      'b/group_vars/web.yml': 'k: from-b\nshared: from-b\n',
    });
    const srcs = [join(root, 'a', 'hosts.yml'), join(root, 'b', 'saved.json')];
    const inv = await loadInventory(srcs);
    // Ansible reads saved JSON only through a script that prints it
    writeFileSync(join(root, 'b', 'saved.sh'), `#!/bin/sh\ncat ${join(root, 'b', 'saved.json')}\n`);
    chmodSync(join(root, 'b', 'saved.sh'), 0o755);
    const real = await ansibleHostvars(['-i', srcs[0], '-i', join(root, 'b', 'saved.sh')], root);
    for (const [h, vars] of Object.entries(real)) t.same(inv.hosts.get(h)!.vars, vars, h);
    t.same([...inv.hosts.keys()].sort(), Object.keys(real).sort());
  },
);

t.test('a directory source: Ansible order and ignore rules, vars inside it', async (t) => {
  const root = tree({
    'inv/10-first': '[g]\nh1 v=first\n',
    'inv/20-second.yml': 'g:\n  hosts:\n    h1:\n      v: second\n    h2:\n',
    'inv/skip.ini': '[g]\nskipped\n',
    'inv/skip.retry': 'h9\n',
    'inv/.hidden': '[g]\nhidden\n',
    'inv/sub/30-nested': '[n]\nh3\n',
    'inv/group_vars/g.yml': 'gv: 1\n',
    'inv/host_vars/h3': 'hv: 3\n',
  });
  const inv = await loadInventory(join(root, 'inv'));
  const real = await ansibleHostvars(['-i', join(root, 'inv')], root);
  t.same([...inv.hosts.keys()].sort(), Object.keys(real).sort());
  for (const [h, vars] of Object.entries(real)) t.same(inv.hosts.get(h)!.vars, vars, h);
});

t.test(
  'templates: resolved per host, recursively; a secret stays a secret; errors name host, variable and file',
  async (t) => {
    const root = tree({
      'hosts.yml': 'all:\n  hosts:\n    h1:\n      engine: es\n    h2:\n',
      'group_vars/all.yml':
        'engine: opensearch\nhome: "/opt/{{ engine }}"\nlogs: "{{ home }}/logs"\nport: "{{ p | default(9200) }}"\n',
    });
    const inv = await loadInventory(join(root, 'hosts.yml'), { env: {} });
    t.same([inv.hosts.get('h1')!.vars.logs, inv.hosts.get('h2')!.vars.logs], ['/opt/es/logs', '/opt/opensearch/logs']);
    t.equal(inv.hosts.get('h2')!.vars.port, '9200', 'ansible-core 2.14: a template gives text');
    const cases: Array<[string, string, RegExp]> = [
      [
        'ansible_user: "{{ b }}"\nb: "{{ ansible_user }}"\n',
        'cycle',
        /host 'h1': variable 'ansible_user' \(set in .*all\.yml\): templates refer to each other in a cycle: ansible_user -> b -> ansible_user/,
      ],
      [
        'ansible_user: "{{ b | upper }}"\nb: x\n',
        'filter',
        /variable 'ansible_user' .*unsupported template \{\{ b \| upper \}\}/,
      ],
      ['engine: "{% if x %}y{% endif %}"\n', 'statement', /variable 'engine' .*statements/],
      ['api_url: "https://{{ nope }}:9200"\n', 'undefined', /variable 'api_url' .*'nope' is undefined/],
      [
        'x: 1\nsearch_home: "{{ y }}"\ny: "{{ ansible_playbook_python }}"\n',
        'indirect',
        /variable 'y' .*'ansible_playbook_python' is undefined/,
      ],
    ];
    for (const [vars, name, re] of cases) {
      const r = tree({ 'hosts.yml': 'all:\n  hosts:\n    h1:\n', 'group_vars/all.yml': vars });
      const out = await runCli(['inventory', '--list', '-i', join(r, 'hosts.yml')]);
      t.equal(out.code, 2, name);
      t.match(out.err, re, name);
    }
  },
);

t.test(
  'templates are resolved only where smdoctor reads them, as Ansible resolves a value only when used',
  async (t) => {
    const r = tree({
      hosts: '[data]\nh1\n[all:vars]\nansible_python_interpreter="{{ ansible_playbook_python }}"\n',
      'group_vars/all.yml':
        'x: "{{ und }}"\nf: "{{ a | upper }}"\ns: "{% if a %}b{% endif %}"\nansible_user: "{{ who }}"\nwho: ops\n',
    });
    const out = await runCli(['inventory', '--list', '-i', join(r, 'hosts')]);
    t.equal(out.code, 0, out.err);
    const vars = JSON.parse(out.out).hosts.h1.vars;
    t.same(
      [vars.ansible_python_interpreter, vars.x, vars.f, vars.s],
      ['{{ ansible_playbook_python }}', '{{ und }}', '{{ a | upper }}', '{% if a %}b{% endif %}'],
      'shown as written',
    );
    t.equal(vars.ansible_user, 'ops', 'a setting smdoctor reads is shown as it will be used');
    const inv = await loadInventory(join(r, 'hosts'), { env: {} });
    t.throws(
      () => inv.hosts.get('h1')!.vars.x,
      { message: /host 'h1': variable 'x' .*'und' is undefined/ },
      'read: named',
    );
  },
);

t.test('input errors: exit 2 with file and line', async (t) => {
  const script = tree({ 'inv.sh': '#!/bin/sh\necho boom >&2\nexit 3\n' });
  chmodSync(join(script, 'inv.sh'), 0o755);
  const cases: Array<[Record<string, string>, string, RegExp]> = [
    [
      { 'aws_ec2.yml': 'plugin: amazon.aws.aws_ec2\nregions: [eu-west-1]\n' },
      'aws_ec2.yml',
      /aws_ec2\.yml:1:1: .*plugin: amazon\.aws\.aws_ec2.*`ansible-inventory -i \S*aws_ec2\.yml --list > inv\.json`, then pass -i inv\.json/,
    ],
    [
      { 'hosts.yml': 'all:\n  hosts:\n    h1:\n', 'group_vars/all.yml': 'a: 1\n  b: [\n' },
      'hosts.yml',
      /group_vars\/all\.yml:1: YAML syntax/,
    ],
    [
      { 'hosts.yml': 'all:\n  hosts:\n    h1:\n', 'host_vars/h1.yml': '\n- a\n- b\n' },
      'hosts.yml',
      /host_vars\/h1\.yml:2: variables must be a mapping/,
    ],
    [
      { 'saved.json': '{"web": {"hosts": "h1"}, "_meta": {}}' },
      'saved.json',
      /saved\.json: hosts of group 'web' must be a list/,
    ],
  ];
  for (const [files, src, re] of cases) {
    const r = tree(files);
    const out = await runCli(['inventory', '--list', '-i', join(r, src)]);
    t.equal(out.code, 2, src);
    t.match(out.err, re, src);
  }
  const s = await runCli(['inventory', '--list', '-i', join(script, 'inv.sh')]);
  t.equal(s.code, 2);
  t.match(s.err, /inv\.sh: inventory script --list: exit 3: boom/);
  const missing = await runCli(['inventory', '--list', '-i', join(script, 'nope')]);
  t.equal(missing.code, 2);
  t.match(missing.err, /nope: cannot read inventory: ENOENT/);
});

t.test('api_password in plain text is used but warned about', async (t) => {
  const r = tree({ 'hosts.yml': 'all:\n  hosts:\n    h1:\n      api_password: plain-pw-1\n' });
  const out = await runCli(['inventory', '--host', 'h1', '-i', join(r, 'hosts.yml')]);
  t.equal(out.code, 0);
  t.match(out.err, /hosts\.yml: api_password is written in plain text/);
  t.notMatch(out.out, /plain-pw-1/);
});
