/** The exporter on fakes: edits byte for byte and refused on drift, the playbook's order and pins, secrets kept out. */
import t from 'tap';
import { mkdtemp, readdir, writeFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { sha256 } from '../../../src/base/hash.ts';
import { editedBytes } from '../../../src/export/edits.ts';
import type { OutFile } from '../../../src/export/ansible.ts';
import { D1, M1, PATH, cluster, edit, planTasks, report, restart, run } from '../../helpers/export/plan-fixtures.ts';
import { runCli } from '../../helpers/cli.ts';

t.test('edited bytes: only the value changes, CRLF and Latin-1 kept; a changed file or diff is refused', async (t) => {
  const bytes = Buffer.from(
    '# caf\xe9 r\xe9glages\r\nnode.name: m1\r\nnode.attr.node_with_sme: true # on purpose?\r\n',
    'latin1',
  );
  const a = edit('m1', bytes);
  const r = editedBytes(a, bytes);
  if (!r.ok) throw new Error(r.why);
  t.same(
    r.file.bytes,
    Buffer.from('# caf\xe9 r\xe9glages\r\nnode.name: m1\r\nnode.attr.node_with_sme: false # on purpose?\r\n', 'latin1'),
  );
  t.equal(r.file.before, sha256(bytes));
  t.equal(r.file.after, sha256(r.file.bytes));
  t.equal(r.file.secret, false);
  const drifted = Buffer.concat([bytes, Buffer.from('# edited\r\n')]);
  t.match(editedBytes(a, drifted), { ok: false, why: /^m1:\/etc\/opensearch\/opensearch\.yml changed since the plan/ });
  t.match(editedBytes({ ...a, diff: `${a.diff} ` }, bytes), { ok: false, why: /no longer gives the planned diff/ });
  const secret = Buffer.from('node.attr.node_with_sme: true\nkeystore.password: hunter2\n');
  const s = editedBytes(edit('m1', secret), secret);
  t.match(s, { ok: true, file: { secret: true } });
});

t.test('the playbook: pins before any step, the elected manager restarted last, secrets hidden', async (t) => {
  const plan = report(cluster([edit('m1', M1), restart('m1'), edit('d1', D1), restart('d1')]));
  const out = await run(plan, { m1: M1, d1: D1 });
  if (!out.ok) throw new Error(out.problems.join('; '));
  const site = out.files.find((f) => f.path === 'site.yml')!.content as string;
  const tasks = planTasks(site);
  const names = tasks.map((x) => String(x.name));
  const firstStep = names.findIndex((n) => n.startsWith('Step '));
  t.ok(
    names.slice(firstStep).every((n) => n.startsWith('Step ')),
    'every pin comes before the first step',
  );
  t.ok(names.slice(0, firstStep).every((n) => n.startsWith('Pins | ')));
  const restarts = names.filter((n) => / restart opensearch on \w+$/.test(n)).map((n) => n.split(' ').pop());
  t.same(restarts, ['d1', 'm1'], 'm1 is elected: restarted last');
  const copies = tasks.filter((x) => 'ansible.builtin.copy' in x);
  t.same(
    copies.map((x) => [x.delegate_to, x.no_log ?? null, x.diff ?? null]),
    [
      ['m1', null, null],
      ['d1', true, false],
    ],
    'the file holding a password is copied with no_log and no diff',
  );
  const secretFile = out.files.find((f: OutFile) => f.path === `files/hosts/d1${PATH}`)!;
  t.equal(secretFile.secret, true);
  t.notMatch(site, /s3cret/);
  t.same(
    out.files.find((f) => f.path === `files/hosts/m1${PATH}`)!.content,
    Buffer.from('node.name: m1\nnode.attr.node_with_sme: false\n'),
  );
  const holds = tasks.filter((x) => Array.isArray(x.always));
  t.equal(holds.length, 2, 'both data nodes: the setting restored in always:');
});

t.test('a host that drifted: nothing exported', async (t) => {
  const plan = report(cluster([edit('m1', M1), restart('m1')]));
  const drift = await run(plan, { m1: Buffer.from('node.name: m1\nnode.attr.node_with_sme: yes\n') });
  t.match(drift, { ok: false, problems: [/^m1:\/etc\/opensearch\/opensearch\.yml changed since the plan/] });
});

t.test('the CLI: -o must be new or empty, checked before anything is read', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'smdoctor-export-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'pb'));
  await writeFile(join(dir, 'pb', 'site.yml'), 'mine\n');
  const r = await runCli([
    'export',
    'ansible',
    '--plan',
    join(dir, 'missing.json'),
    '-i',
    join(dir, 'none.yml'),
    '-o',
    join(dir, 'pb'),
  ]);
  t.equal(r.code, 2);
  t.match(r.err, /pb: the directory is not empty/);
  t.same(await readdir(join(dir, 'pb')), ['site.yml']);
  const noPlan = await runCli(['export', 'ansible', '-o', join(dir, 'new')]);
  t.equal(noPlan.code, 2);
  t.match(noPlan.err, /--plan FILE is required/);
});

t.test('a restart planned on its own runs while the node still runs the old state, not on every run', async (t) => {
  const out = await run(report(cluster([restart('d1')])), {});
  if (!out.ok) throw new Error(out.problems.join('; '));
  const tasks = planTasks(out.files[0]!.content as string);
  const names = tasks.map((x) => String(x.name));
  t.ok(names.includes('Pins | read the running node attributes (restarts planned on their own)'));
  const block = tasks.find((x) => Array.isArray(x.block))!;
  t.match(block.when, /c1_attrs\.json \| selectattr\('node', 'equalto', 'd1'\)/);
  t.match(block.when, /c1_cplugins\.json/);
});
