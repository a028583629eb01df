/** `pack validate FILE...` and `pack list`: what a pack holds, checked as audit would load it, nothing reached. */
import { EXIT, UsageError } from '../../base/errors.ts';
import { CHECK_IDS } from '../../model/index.ts';
import {
  loadPacks,
  packFiles,
  parsePack,
  parseWaivers,
  problemLine,
  readCapped,
  builtinNames,
  BUILTIN_PREFIX,
} from '../../packs/index.ts';
import type { PackProblem } from '../../packs/index.ts';
import { escapeControls } from '../../text/index.ts';
import { maxFileBytes } from '../../base/limits.ts';
import { sayTo, type CliContext } from '../context.ts';
import { packListArgs, type PackListArgs } from '../args.ts';

/** One file's problems, or what it holds: a pack's checks, a waivers file's waivers. */
async function validateOne(
  file: string,
  origin: string,
  maxBytes: number,
): Promise<{ ok?: string; problems: PackProblem[] }> {
  const { text, problem } = await readCapped(file, maxBytes);
  if (text === undefined) return { problems: problem ? [{ ...problem, file: origin }] : [] };
  // a waivers file says so in its first key; anything else is read as a pack
  if (/^smdoctor_waivers\s*:/m.test(text)) {
    const w = parseWaivers(text, origin);
    return w.waivers ? { ok: `waivers, ${w.waivers.length}`, problems: [] } : { problems: w.problems };
  }
  const p = parsePack(text, origin, origin);
  return p.pack
    ? { ok: `pack ${p.pack.name}, ${p.pack.checks.length} checks`, problems: [] }
    : { problems: p.problems };
}

export async function runPackValidate(ctx: CliContext, files: string[]): Promise<number> {
  let bad = 0;
  // a folder is its *.yml in name order, as --pack reads it
  const all = await packFiles(files, ctx.cwd);
  if (!all.length) throw new UsageError(`pack validate ${files.join(' ')}: no *.yml file there`);
  for (const { file, origin } of all) {
    const r = await validateOne(file, origin, maxFileBytes(ctx.env));
    if (r.ok) ctx.stdout.write(`${escapeControls(origin)}: ok (${escapeControls(r.ok)})\n`);
    for (const p of r.problems) sayTo(ctx.stderr).raw(`${escapeControls(problemLine(p))}\n`);
    bad += r.problems.length;
  }
  if (bad) sayTo(ctx.stderr)(`${bad} problem${bad === 1 ? '' : 's'}`);
  return bad ? EXIT.usage : EXIT.ok;
}

const row = (id: string, severity: string, title: string): string =>
  `${escapeControls(id).padEnd(48)} ${severity.padEnd(8)} ${escapeControls(title)}\n`;

/** Every check audit would run with these packs, in run order; then the packs that ship with smdoctor. */
export async function runPackList(ctx: CliContext, flags: Partial<PackListArgs>): Promise<number> {
  const packs = await loadPacks(packListArgs(flags).pack, {
    cwd: ctx.cwd,
    maxBytes: maxFileBytes(ctx.env),
  });
  ctx.stdout.write(row('CHECK', 'SEVERITY', 'TITLE'));
  for (const id of CHECK_IDS) ctx.stdout.write(row(id, 'critical', "the vendor's check (docs/checks.md)"));
  for (const p of packs) for (const k of p.checks) ctx.stdout.write(row(k.fullId, k.severity, k.title));
  const shipped = builtinNames();
  ctx.stdout.write(
    `\nbuiltin packs: ${shipped.length ? shipped.map((n) => `${BUILTIN_PREFIX}${n}`).join(', ') : 'none'}\n`,
  );
  return EXIT.ok;
}
