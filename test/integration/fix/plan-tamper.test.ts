/** fix --plan on a hand-edited plan: nothing it says is carried out unless the audit plans exactly that now. */
import t from 'tap';

// a lab and several audits: slow on a loaded machine
t.setTimeout(900_000);
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { digestOf, reviewedPlanOnLab } from '../../helpers/reviewed-plan.ts';
import type { Report } from '../../../src/model/index.ts';
import { fixArgs } from '../../helpers/fix-args.ts';

t.test(
  'a tampered plan is refused, each difference named; a malformed one exits 2; the digest must match',
  async (t) => {
    const { lab, dir, planFile, digest, original, edit } = await reviewedPlanOnLab(t);
    const fix = (file: string, ...extra: string[]) =>
      runCli(fixArgs(lab.inventoryPath, { backupDir: join(dir, 'b'), plan: file }, ...extra), { cwd: '/tmp' });
    const pwned = join(dir, 'PWNED');

    // carried out verbatim on 0.2: a command, a document body, a hash check removed, the plan dated now
    const tampered = await edit('tampered', (r, actions) => {
      r.generated_at = new Date().toISOString();
      const rm = actions.find((a) => a.type === 'remove-plugin')!;
      rm.command = `touch ${pwned}; ${rm.command}`;
      const doc = actions.find((a) => a.type === 'put-document')!;
      (doc.body as Record<string, unknown>).injected = 'by hand';
      delete actions.find((a) => a.base_sha256 !== undefined)!.base_sha256;
    });
    const r = await fix(tampered);
    t.equal(r.code, 3, r.err);
    t.match(r.err, /drift: action \d+ \(remove-plugin on \S+\): command planned "touch \//);
    t.match(r.err, /drift: action \d+ \(put-document \S+\): body planned …?\{?.*"injected":"by hand".*, now /);
    t.match(r.err, /drift: action \d+ \(set-\w+ on \S+ \S+\): base_sha256 planned absent, now [0-9a-f]{12}…/);
    t.match(r.err, /nothing was changed/);
    await t.rejects(stat(pwned), { code: 'ENOENT' }, 'the injected command never ran');
    const again = await runCli(['audit', '-i', lab.inventoryPath, '--format', 'json', '-o', join(dir, 'again.json')], {
      cwd: '/tmp',
    });
    t.equal(digestOf(again.err), digest, 'the cluster is exactly as audited: nothing changed');

    // malformed: exit 2, nothing read from the fleet
    const unknown = await edit('unknown', (_r, actions) => {
      (actions[0] as unknown as Record<string, unknown>).sudo_user = 'root';
    });
    const u = await fix(unknown);
    t.equal(u.code, 2);
    t.match(u.err, /unknown\.json: not a plan smdoctor audit wrote .*actions\[0\]\.sudo_user: unknown field/);
    const nopin = await edit('nopin', (r) => {
      delete (r.clusters[0]!.pins as Partial<NonNullable<Report['clusters'][0]['pins']>>).cluster_settings;
    });
    const p = await fix(nopin);
    t.equal(p.code, 2);
    t.match(p.err, /pins\.cluster_settings: missing/);

    // the approved digest is the file's, or nothing runs
    const wrong = await fix(tampered, '--approve', digest);
    t.equal(wrong.code, 2);
    t.match(
      wrong.err,
      /its digest is sha256:[0-9a-f]{64}, not the approved sha256:[0-9a-f]{64}: this is not the plan that was reviewed/,
    );

    // a host outside the selection: refused up front, named
    const rm = (JSON.parse(original) as Report).clusters[0]!.checks.flatMap((k) => k.actions).find((a) => a.host)!;
    const others = lab.nodes.map((n) => n.name).filter((n) => n !== rm.host);
    const limited = await fix(planFile, '--limit', others.join(':'));
    t.equal(limited.code, 2);
    t.match(limited.err, new RegExp(`host ${rm.host} is not a selected host of`));
  },
);
