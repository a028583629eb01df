/** export ansible --plan on a hand-edited plan: nothing it says reaches a playbook unless the audit plans exactly that now. */
import t from 'tap';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { reviewedPlanOnLab } from '../../helpers/reviewed-plan.ts';

// a lab and a few audits: slow on a loaded machine
t.setTimeout(600_000);

t.test('a tampered plan is refused, each difference named, nothing written; --approve must match', async (t) => {
  const { lab, dir, planFile, digest, edit } = await reviewedPlanOnLab(t);
  const exportTo = (file: string, out: string, ...extra: string[]) =>
    runCli(['export', 'ansible', '--plan', file, '-i', lab.inventoryPath, '-o', join(dir, out), ...extra], {
      cwd: '/tmp',
    });
  const absent = (out: string) => t.rejects(stat(join(dir, out)), { code: 'ENOENT' }, `${out} was not created`);

  // written into the playbook verbatim before: a command and a document body
  const tampered = await edit('tampered', (_r, actions) => {
    const rm = actions.find((a) => a.type === 'remove-plugin')!;
    rm.command = `touch /tmp/PWNED; ${rm.command}`;
    const doc = actions.find((a) => a.type === 'put-document')!;
    (doc.body as Record<string, unknown>).injected = 'by hand';
  });
  const r = await exportTo(tampered, 'tampered-pb');
  t.equal(r.code, 3, r.err);
  t.match(r.err, /drift: action \d+ \(remove-plugin on \S+\): command planned "touch \/tmp\/PWNED; /);
  t.match(r.err, /drift: action \d+ \(put-document \S+\): body planned …?\{?.*"injected":"by hand".*, now /);
  t.match(r.err, /nothing was written/);
  await absent('tampered-pb');

  // malformed: exit 2 before the inventory is even opened
  const unknown = await edit('unknown', (_r, actions) => {
    (actions[0] as unknown as Record<string, unknown>).sudo_user = 'root';
  });
  const bogus = join(dir, 'no-inventory.yml');
  const u = await runCli(['export', 'ansible', '--plan', unknown, '-i', bogus, '-o', join(dir, 'unknown-pb')]);
  t.equal(u.code, 2, u.err);
  t.match(u.err, /unknown\.json: not a plan smdoctor audit wrote .*actions\[0\]\.sudo_user: unknown field/);
  await absent('unknown-pb');

  // a wrong digest: exit 2, also before the inventory is opened
  const w = await runCli([
    'export',
    'ansible',
    '--plan',
    tampered,
    '-i',
    bogus,
    '-o',
    join(dir, 'wrong-pb'),
    '--approve',
    digest,
  ]);
  t.equal(w.code, 2, w.err);
  t.match(w.err, /its digest is sha256:[0-9a-f]{64}, not the approved sha256:[0-9a-f]{64}: this is not the plan/);
  await absent('wrong-pb');

  // the reviewed plan with its own digest: exported from the actions the audit plans now
  const ok = await exportTo(planFile, 'pb', '--approve', digest.replace(/^sha256:/, '').toUpperCase());
  t.equal(ok.code, 0, ok.err);
  t.match(ok.err, new RegExp(`digest ${digest} \\(approved\\)`));
  const site = await readFile(join(dir, 'pb', 'site.yml'), 'utf8');
  t.match(site, `Plan digest ${digest}`);
  t.notMatch(site, /PWNED|injected/);
});
