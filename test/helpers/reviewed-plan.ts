/** A reviewed plan on a fresh lab, as an operator makes one: audit writes plan.json and prints its digest. */
import type { Test } from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from './cli.ts';
import { startLab } from '../../lab/src/index.ts';
import type { Action, Report } from '../../src/model/index.ts';

export const digestOf = (err: string): string => /plan digest (sha256:[0-9a-f]{64})/.exec(err)?.[1] ?? 'none';

export async function reviewedPlanOnLab(t: Test) {
  const lab = await startLab({ scenario: 'broken', restartDelayMs: 50 });
  t.teardown(() => lab.stop());
  const dir = t.testdir({});
  const planFile = join(dir, 'plan.json');
  const audit = await runCli(['audit', '-i', lab.inventoryPath, '--format', 'json', '-o', planFile], { cwd: '/tmp' });
  t.equal(audit.code, 1, audit.err);
  const digest = digestOf(audit.err);
  t.match(digest, /^sha256:/, 'audit prints the digest');
  const original = await readFile(planFile, 'utf8');
  /** A hand-edited copy of the plan: `change` gets the plan and all its actions, in order. */
  const edit = async (name: string, change: (r: Report, actions: Action[]) => void): Promise<string> => {
    const r = JSON.parse(original) as Report;
    change(
      r,
      r.clusters.flatMap((c) => c.checks.flatMap((k) => k.actions)),
    );
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify(r));
    return file;
  };
  return { lab, dir, planFile, digest, original, edit };
}
