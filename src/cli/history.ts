/** --history DIR: every JSON report kept there, time-stamped, written whole, the oldest of each kind pruned. */
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors.ts';
import type { Report } from '../model/index.ts';
import { writeOutput } from './output.ts';

/** What a kept report is of: audit and fix reports compare with each other, migrate reports with their own kind. */
export type HistoryKind = 'audit' | 'fix' | 'migrate-jobs' | 'migrate-dashboards';

// 2026-11-25T07-10-00.123Z.audit.json: names sort by time (colons are not allowed on every file system)
const NAME = /^(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z)(?:-(\d+))?\.(audit|fix|migrate-jobs|migrate-dashboards)\.json$/;

export interface Kept {
  file: string;
  kind: HistoryKind;
}

/** The kept reports, oldest first (all kinds unless given). A missing directory has none. */
export async function listHistory(dir: string, kinds?: readonly HistoryKind[]): Promise<Kept[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new InputError(`--history ${dir}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  return names
    .map((n) => ({ n, m: NAME.exec(n) }))
    .filter((x) => x.m && (!kinds || kinds.includes(x.m[3] as HistoryKind)))
    .sort((a, b) => a.m![1]!.localeCompare(b.m![1]!) || Number(a.m![2] ?? 0) - Number(b.m![2] ?? 0))
    .map((x) => ({ file: join(dir, x.n), kind: x.m![3] as HistoryKind }));
}

/** Keeps `json` (a rendered JSON report) in dir; returns its path. Then only the newest `keep` of its kind remain. */
export async function keepReport(
  dir: string,
  kind: HistoryKind,
  json: string,
  keep: number,
  at = new Date(),
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = at.toISOString().replace(/:/g, '-');
  const taken = new Set((await listHistory(dir)).map((k) => k.file));
  let file = join(dir, `${stamp}.${kind}.json`);
  // two runs in the same millisecond each keep their report
  for (let n = 1; taken.has(file); n++) file = join(dir, `${stamp}-${n}.${kind}.json`);
  await writeOutput(file, json);
  const mine = await listHistory(dir, [kind]);
  for (const old of mine.slice(0, Math.max(0, mine.length - keep))) await unlink(old.file).catch(() => undefined);
  return file;
}

/** A JSON report of audit or fix, read and checked; errors name the file. */
export async function readReport(file: string): Promise<Report> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let r: Report;
  try {
    r = JSON.parse(text) as Report;
  } catch (e) {
    throw new InputError(`${file}: not JSON (${(e as Error).message}): give a JSON report of smdoctor audit or fix`);
  }
  if (typeof r !== 'object' || r === null || r.tool !== 'smdoctor' || !Array.isArray(r.clusters))
    throw new InputError(`${file}: not a JSON report of smdoctor audit or fix`);
  if (r.mode !== 'audit' && r.mode !== 'fix')
    throw new InputError(`${file}: a ${String(r.mode)} report: give a JSON report of smdoctor audit or fix`);
  return r;
}

/** The last `n` audit and fix reports kept in dir, oldest first; unreadable ones are skipped with a warning. */
export async function recentReports(dir: string, n: number, warn: (m: string) => void): Promise<Report[]> {
  const kept = (await listHistory(dir, ['audit', 'fix'])).slice(-n);
  const out: Report[] = [];
  for (const k of kept) {
    try {
      out.push(await readReport(k.file));
    } catch (e) {
      warn((e as Error).message);
    }
  }
  return out;
}
