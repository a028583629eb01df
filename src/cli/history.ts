/** --history DIR: every JSON report kept there, numbered and time-stamped, written whole, the oldest of each kind pruned. */
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../base/errors.ts';
import type { Report } from '../model/index.ts';
import { parseJsonFile, reportShapeProblem } from '../facts/report-file.ts';
import { writeOutput } from './output.ts';

/** What a kept report is of: audit and fix reports compare with each other, migrate reports with their own kind. */
export type HistoryKind = 'audit' | 'fix' | 'migrate-jobs' | 'migrate-dashboards';

// 000042.2026-11-25T07-10-00.123Z.audit.json: the sequence orders, the time is for people (a clock can be wrong);
// names without a sequence were kept before 0.4 and come first, by time
const NAME =
  /^(?:(\d{1,15})\.)?(\d{4})-(\d\d)-(\d\d)T(\d\d)-(\d\d)-(\d\d\.\d{3})Z(?:-(\d+))?\.(audit|fix|migrate-jobs|migrate-dashboards)\.json$/;

/** A report's time may be this far ahead of the reader's clock (clocks of one fleet differ a little). */
const CLOCK_SLACK_MS = 5 * 60_000;

export interface Kept {
  file: string;
  kind: HistoryKind;
  /** The order smdoctor kept it in: one more than the highest in the directory; 0 before 0.4. */
  seq: number;
  /** The time in its name (ms), from the clock of the machine that kept it. */
  at: number;
}

function parseName(dir: string, name: string): (Kept & { dup: number }) | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [, seq, y, mo, d, h, mi, sec, dup, kind] = m;
  return {
    file: join(dir, name),
    kind: kind as HistoryKind,
    seq: Number(seq ?? 0),
    at: Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec}Z`),
    dup: Number(dup ?? 0),
  };
}

/** The kept reports, oldest first by sequence (all kinds unless given). A missing directory has none. */
export async function listHistory(dir: string, kinds?: readonly HistoryKind[]): Promise<Kept[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new InputError(`--history ${dir}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  return names
    .flatMap((n) => {
      const k = parseName(dir, n);
      return k && (!kinds || kinds.includes(k.kind)) ? [k] : [];
    })
    .sort((a, b) => a.seq - b.seq || a.at - b.at || a.dup - b.dup)
    .map(({ file, kind, seq, at }) => ({ file, kind, seq, at }));
}

/** The kept reports a reader compares, oldest first: one dated in the future (a clock ahead) is set aside, said. */
export async function trustedHistory(
  dir: string,
  kinds: readonly HistoryKind[],
  warn: (m: string) => void,
  now = Date.now(),
): Promise<Kept[]> {
  const all = await listHistory(dir, kinds);
  const future = all.filter((k) => !(k.at <= now + CLOCK_SLACK_MS));
  for (const k of future)
    warn(`${k.file}: dated in the future (the clock that kept it was ahead): set aside; remove it once checked`);
  return all.filter((k) => !future.includes(k));
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
  const kept = await listHistory(dir);
  const taken = new Set(kept.map((k) => k.file));
  // the next number whatever the clocks said; a taken name (two runs at once) takes the one after
  let seq = Math.max(0, ...kept.map((k) => k.seq)) + 1;
  const name = (n: number): string => join(dir, `${String(n).padStart(6, '0')}.${stamp}.${kind}.json`);
  while (taken.has(name(seq))) seq++;
  const file = name(seq);
  await writeOutput(file, json);
  const mine = await listHistory(dir, [kind]);
  for (const old of mine.slice(0, Math.max(0, mine.length - keep))) await unlink(old.file).catch(() => undefined);
  return file;
}

const WANT = 'give a JSON report of smdoctor audit or fix';

/** A JSON report of audit or fix, read and checked against the report schema; errors name the file and the field. */
export async function readReport(file: string): Promise<Report> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const r = parseJsonFile(text, file, WANT) as Partial<Report> | null;
  if (typeof r !== 'object' || r === null || r.tool !== 'smdoctor' || !Array.isArray(r.clusters))
    throw new InputError(`${file}: not a JSON report of smdoctor audit or fix`);
  if (r.mode !== 'audit' && r.mode !== 'fix') throw new InputError(`${file}: a ${String(r.mode)} report: ${WANT}`);
  const problem = reportShapeProblem(r);
  if (problem) throw new InputError(`${file}: ${problem}: ${WANT}`);
  return r as Report;
}

/** The last `n` audit and fix reports kept in dir, oldest first; unreadable or malformed ones are skipped with a warning. */
export async function recentReports(dir: string, n: number, warn: (m: string) => void): Promise<Report[]> {
  const kept = (await trustedHistory(dir, ['audit', 'fix'], warn)).slice(-n);
  const out: Report[] = [];
  for (const k of kept) {
    try {
      out.push(await readReport(k.file));
    } catch (e) {
      warn(`${(e as Error).message} (skipped)`);
    }
  }
  return out;
}
