/** What a hostile pack author cannot do: smuggle a line break into a config, run an expensive regex, ship a huge pack. */
import t from 'tap';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPacks, MAX_PACK_BYTES, parsePack } from '../../../src/packs/load/load.ts';
import { MAX_PACK_CHECKS } from '../../../src/packs/load/load-pack.ts';
import { regexProblem } from '../../../src/packs/load/load-regex.ts';
import { judgeCheck } from '../../../src/packs/index.ts';
import { MAX_REGEX_WEIGHT, MAX_SCANNED_CHARS, regexWeight, scanLimit } from '../../../src/base/regex-cost.ts';
import { check, cluster } from '../../helpers/packs/facts.ts';

const head = 'smdoctor_pack: 1\nname: acme\nchecks:\n';
const remedyPack = (remedy: string) =>
  `${head}  - id: rack\n    title: Rack\n    severity: low\n    why: Awareness.\n    read: { setting: node.attr.rack }\n    expect: { equals: r1 }\n    remedy: ${remedy}\n`;

t.test('a remedy value with a line break (YAML 1.1 included) or a control is refused, at file:line:col', async (t) => {
  const cases: Array<[string, string]> = [
    ['NEL', '\\N'],
    ['LS', '\\L'],
    ['PS', '\\P'],
    ['LF', '\\n'],
    ['CR', '\\r'],
    ['TAB', '\\t'],
    ['ESC', '\\e'],
    ['DEL', '\\x7f'],
    ['C1', '\\x9b'],
  ];
  for (const kind of ['set_setting', 'set_dashboards_setting', 'put_cluster_setting']) {
    for (const [name, esc] of cases) {
      const text = remedyPack(`{ ${kind}: { key: node.attr.rack, value: "r1${esc}plugins.security.disabled: true" } }`);
      const { pack, problems } = parsePack(text, 'acme.yml');
      t.equal(pack, undefined, `${kind} ${name}: refused`);
      t.match(
        problems,
        [{ file: 'acme.yml', line: 10, col: Number, message: /value holds .*(NEL|separator|line break|control)/ }],
        `${kind} ${name}`,
      );
    }
  }
  t.ok(
    parsePack(remedyPack('{ set_setting: { key: node.attr.rack, value: "r1 r2" } }'), 'ok.yml').pack,
    'a plain value loads',
  );
});

t.test('a regex heavier than the bound is refused when the pack is loaded', async (t) => {
  const words: string[] = [];
  for (let i = 0; words.join('|').length < 640; i++) words.push(`w${i.toString(36)}x`);
  const heavy = `(${words.join('|')})z`;
  t.ok(heavy.length < 1000, 'under the old length limit: accepted before');
  t.match(regexProblem(heavy), /too heavy to run cheaply: it weighs \d+ \(at most 400/);
  t.equal(regexProblem('^-Xmx(\\d+[gGmM]?)$'), null, 'an ordinary pattern');
  t.ok(regexWeight('^-Xmx(\\d+[gGmM]?)$') < 40, 'and a light one');
  const text = `${head}  - id: f\n    title: F\n    severity: low\n    why: W.\n    read: { file: { path: config/x, match: '${heavy}' } }\n    expect: { present: false }\n`;
  const { problems } = parsePack(text, 'heavy.yml');
  t.match(problems, [{ line: 8, col: Number, message: /too heavy/ }], 'at the file source, file:line:col');
});

t.test(
  'a match scans at most what its weight allows: a longer text or value is undecided, never a failure',
  async (t) => {
    const pattern = '^-Xmx(\\d+)g$';
    const limit = scanLimit(regexWeight(pattern));
    t.ok(limit <= MAX_SCANNED_CHARS);
    const long = `${'#'.repeat(limit)}\n-Xmx4g\n`;
    const file = judgeCheck(
      check({ kind: 'file', path: 'config/jvm.options', match: pattern }, [{ kind: 'present', value: false }]),
      cluster([{ name: 'n1', reads: { files: { 'search:config/jvm.options': { text: long } } } }]),
      1,
      { now: new Date() },
    );
    t.equal(file.status, 'error', 'a file past the limit: undecided');
    t.match(file.reason, /config\/jvm\.options: \d+ characters are more than this regex may scan/);
    const short = judgeCheck(
      check({ kind: 'file', path: 'config/jvm.options', match: pattern }, [{ kind: 'present', value: false }]),
      cluster([{ name: 'n1', reads: { files: { 'search:config/jvm.options': { text: long.slice(limit - 100) } } } }]),
      1,
      { now: new Date() },
    );
    t.equal(short.status, 'fail', 'a file within the limit is scanned');
    const r = judgeCheck(
      check({ kind: 'setting', key: 'a.b' }, [{ kind: 'matches', regex: 'x' }]),
      cluster([{ name: 'n1', yml: `a.b: "${'y'.repeat(MAX_SCANNED_CHARS + 1)}"` }]),
      1,
      { now: new Date() },
    );
    t.equal(r.status, 'error', 'a value past the limit: undecided');
    const not = judgeCheck(
      check({ kind: 'setting', key: 'a.b' }, [{ kind: 'not_matches', regex: 'x' }]),
      cluster([{ name: 'n1', yml: `a.b: "${'y'.repeat(MAX_SCANNED_CHARS + 1)}"` }]),
      1,
      { now: new Date() },
    );
    t.equal(not.status, 'error', 'not_matches too: undecided, never a pass');
    t.match(r.reason, /more than this regex may scan/);
    t.ok(
      MAX_REGEX_WEIGHT * scanLimit(MAX_REGEX_WEIGHT) <= 2_500_000,
      'the worst pattern × the longest text it may scan',
    );
  },
);

t.test('a pack past the checks or size limit is refused with a clear error, before its checks are read', async (t) => {
  const one = (i: number) =>
    `  - { id: c${i}, title: T, severity: low, why: W, read: memory, expect: { at_least: 1g } }\n`;
  const many = head + Array.from({ length: MAX_PACK_CHECKS + 1 }, (_, i) => one(i)).join('');
  const { pack, problems } = parsePack(many, 'many.yml');
  t.equal(pack, undefined);
  t.match(problems, [{ line: 4, message: /501 checks, past the limit of 500 in one pack: split it into several/ }]);
  t.ok(parsePack(head + Array.from({ length: MAX_PACK_CHECKS }, (_, i) => one(i)).join(''), 'ok.yml').pack);
  const dir = await mkdtemp(join(tmpdir(), 'packs-'));
  await writeFile(join(dir, 'big.yml'), `${head}${'#'.repeat(MAX_PACK_BYTES)}\n`);
  const err = await loadPacks(['big.yml'], { cwd: dir, maxBytes: 16 << 20 }).catch((e: Error) => e);
  t.match((err as Error).message, /big\.yml: \d+ bytes, past the limit of 524288 bytes \(512 KiB\) for one file/);
});
