/** `smdoctor export ansible`: a reviewed plan written as a playbook directory for ansible-playbook (and so AWX). */
import { resolve } from 'node:path';
import { EXIT, UsageError } from '../../base/errors.ts';
import { parseDuration, readPlan } from '../../fix/plan-file.ts';
import { escapeControls } from '../../text/index.ts';
import { exportAnsible } from '../../export/ansible.ts';
import { checkTarget, writePlaybookDir } from '../../export/write.ts';
import { layerDeps, sayTo, type CliContext } from '../context.ts';
import { rederivedPlan } from '../export-review.ts';
import { exportArgs, type ExportArgs } from '../args.ts';

export async function runExportAnsible(ctx: CliContext, flags: Partial<ExportArgs>): Promise<number> {
  const opts = exportArgs(flags);
  if (opts.plan === undefined) throw new UsageError('export ansible: --plan FILE is required (a JSON report of audit)');
  if (opts.outputDir === undefined)
    throw new UsageError('export ansible: -o DIR is required (a new or empty directory)');
  const dir = resolve(ctx.cwd, opts.outputDir);
  // the target and the plan are checked before any host is read
  await checkTarget(dir);
  const planFile = resolve(ctx.cwd, opts.plan);
  const reviewed = await readPlan(planFile, parseDuration(opts.planMaxAge), Date.now());
  // the playbook carries the actions the audit plans now, and only when they equal the file's
  const derived = await rederivedPlan(ctx, opts, reviewed);
  if (!derived.ok) {
    const say = sayTo(ctx.stderr);
    for (const p of derived.differences) say(p);
    say('nothing was written: the plan differs from what the audit plans now (audit again, review the new plan)');
    return EXIT.incomplete;
  }
  const { plan, inventory, hosts, access, warn, digest } = derived;
  const out = await exportAnsible(plan, {
    inventory,
    hosts,
    access,
    env: ctx.env,
    timeout: opts.timeout,
    allowYellow: opts.allowYellow,
    planFile: opts.plan,
    digest,
    warn,
    ...layerDeps(ctx),
  });
  if (!out.ok) {
    const say = sayTo(ctx.stderr);
    for (const p of out.problems) say.raw(`smdoctor: ${escapeControls(p)}\n`);
    say('nothing was written: the hosts no longer match the plan, or it cannot be exported');
    return EXIT.incomplete;
  }
  await writePlaybookDir(dir, out.files);
  const secret = out.files.filter((f) => f.secret).map((f) => f.path);
  for (const f of secret)
    warn(`${f} holds a secret-named value (owner-only): encrypt it with ansible-vault encrypt before committing it`);
  sayTo(ctx.stderr).raw(
    `smdoctor: wrote ${dir}/site.yml (${out.steps} tasks); run: ansible-playbook -i INVENTORY ${dir}/site.yml --check --diff, then without --check\n`,
  );
  return EXIT.ok;
}
