/**
 * Each list, key and pattern the layers share is declared once, in src/model/, and imported everywhere else: a copy
 * is a place the next change forgets. Scans the text of src/ for the model's values written out again.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as model from '../../../src/model/index.ts';

const QUOTED_ROW = /'\| [^'\n]* \|'/g;
const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const files = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  // a check's troubleshooting row quotes the vendor's table word for word: a quotation, not a copy
  .map((f) => ({
    file: relative(SRC, join(SRC, f)),
    text: readFileSync(join(SRC, f), 'utf8').replace(QUOTED_ROW, "''"),
  }));

const lists = Object.entries(model as Record<string, unknown>).filter(
  (e): e is [string, readonly string[]] =>
    Array.isArray(e[1]) && e[1].length > 1 && e[1].every((x: unknown) => typeof x === 'string'),
);
// a string, or a list of one (a default): each written once, anywhere in src/
const keys = Object.entries(model as Record<string, unknown>).flatMap(([name, x]): Array<[string, string]> =>
  typeof x === 'string'
    ? [[name, x]]
    : Array.isArray(x) && x.length === 1 && typeof x[0] === 'string'
      ? [[name, x[0]]]
      : [],
);

// quoted words in a row: an array (`['a', 'b']`), arguments (`is('a', 'b')`) or a union type (`'a' | 'b'`)
const WORD = String.raw`'([^'\\\n]*)'`;
const ROW = new RegExp(String.raw`${WORD}(?:\s*(?:,|\|)\s*${WORD})+`, 'g');

/** Each run of quoted words in the text, as its words. */
function rows(text: string): string[][] {
  return [...text.matchAll(ROW)].map((m) => [...m[0].matchAll(new RegExp(WORD, 'g'))].map((w) => w[1]!));
}

/** Where a list is written out again, in any order: a run of its words and no other, all of them or all but one. */
function copiesOf(list: readonly string[]): string[] {
  const least = Math.max(2, list.length - 1);
  return files.flatMap(({ file, text }) =>
    rows(text)
      .filter((r) => r.length >= least && r.every((w) => list.includes(w)))
      .map((r) => `${file}: ${r.join(', ')}`),
  );
}

t.test('each list of the model is written once in src/: its declaration', async (t) => {
  t.ok(lists.length >= 5, `the model's lists: ${lists.map(([n]) => n).join(', ')}`);
  for (const [name, list] of lists) t.equal(copiesOf(list).length, 1, `${name}: ${copiesOf(list).join(' · ')}`);
});

t.test('each key of the model is written once in src/, comments and messages too', async (t) => {
  for (const [name, key] of keys) {
    const at = files.filter(({ text }) => text.includes(key)).map(({ file }) => file);
    const times = files.reduce((n, { text }) => n + text.split(key).length - 1, 0);
    t.equal(times, 1, `${name} (${key}): ${at.join(', ')}`);
  }
});

t.test(
  "the pack-id pattern is written once in src/: a pack's name, a pack check's id and a waiver's build on it",
  async (t) => {
    const name = model.PACK_NAME_RE.source.slice(1, -1);
    t.equal(model.PACK_CHECK_ID_RE.source, `^${name}\\/${name}$`, 'pack/id is two names');
    const at = files.filter(({ text }) => text.includes(name)).map(({ file }) => file);
    t.strictSame(at, ['model/pack.ts']);
    t.equal(files.find((f) => f.file === 'model/pack.ts')!.text.split(name).length - 1, 1);
  },
);

t.test('only summaryOf counts checks_failed; elsewhere a summary is read, never counted', async (t) => {
  const counted = files.flatMap(({ file, text }) =>
    [...text.matchAll(/checks_failed: ([^,\n}]+)/g)]
      .map((m) => m[1]!.trim())
      .filter((value) => value !== 'count' && !/^\w+\.checks_failed$/.test(value))
      .map((value) => `${file}: ${value}`),
  );
  t.equal(counted.length, 1, counted.join(' · '));
  t.match(counted[0], /^model\/summary\.ts: /);
});
