import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { loadPacks, PackLoadError, parsePack } from '../../../src/packs/load/load.ts';
import { unitNumber } from '../../../src/packs/load/forms.ts';

const root = new URL('../../../', import.meta.url);
const schema: unknown = JSON.parse(readFileSync(new URL('schema/pack.json', root), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(
  schema as object,
);
const REFUSED = new URL('test/fixtures/packs/refused/', root);

/** What the schema says of a YAML text: undefined when valid, else why not (YAML the parser refuses counts as refused). */
function schemaSays(text: string): string | undefined {
  let doc: unknown;
  try {
    doc = parse(text, { uniqueKeys: true, maxAliasCount: 10_000 });
  } catch (e) {
    return `YAML: ${(e as Error).message}`;
  }
  return validate(doc) ? undefined : JSON.stringify(validate.errors?.slice(0, 3));
}

// each fixture says what the loader must report: `# expect LINE:COL text`, one line per problem, in order
for (const name of readdirSync(REFUSED).filter((f) => f.endsWith('.yml'))) {
  const text = readFileSync(new URL(name, REFUSED), 'utf8');
  t.test(`refused: ${name}`, async (t) => {
    const want = [...text.matchAll(/^# expect (\d+):(\d+) (.*)$/gm)].map((m) => ({
      line: +m[1]!,
      col: +m[2]!,
      text: m[3]!,
    }));
    const { pack, problems } = parsePack(text, name);
    t.equal(pack, undefined, 'no pack is loaded');
    t.same(
      problems.map((p) => `${p.line}:${p.col}`),
      want.map((w) => `${w.line}:${w.col}`),
      'every problem, at its line and column',
    );
    for (const [i, w] of want.entries()) t.match(problems[i]?.message, w.text, `${w.line}:${w.col} says ${w.text}`);
    t.ok(problems.every((p) => p.file === name));
    // schema/pack.json refuses the same file, except what a JSON Schema cannot say (named in the fixture)
    if (/^# schema-cannot: /m.test(text)) t.equal(schemaSays(text), undefined, 'the schema cannot see this one');
    else t.not(schemaSays(text), undefined, 'schema/pack.json refuses it too');
  });
}

t.test('the shipped and example packs load, and the schema accepts them', async (t) => {
  const dirs = ['examples/packs/', 'packs/'].map((d) => new URL(d, root));
  const files = dirs.flatMap((d) => {
    try {
      // a waivers file beside the packs is no pack
      return readdirSync(d)
        .filter((f) => !f.endsWith('.waivers.yml'))
        .map((f) => new URL(f, d));
    } catch {
      return [];
    }
  });
  t.ok(files.length >= 1);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const { pack, problems } = parsePack(text, f.pathname);
    t.same(problems, [], `${f.pathname} loads`);
    t.ok(pack?.checks.length);
    t.equal(schemaSays(text), undefined, `${f.pathname} passes schema/pack.json`);
  }
});

t.test('a loaded check: full id, defaults, units as numbers', async (t) => {
  const { pack } = parsePack(
    [
      'smdoctor_pack: 1',
      'name: acme',
      'checks:',
      '  - {id: heap, title: Heap, severity: high, why: W, read: {jvm_option: -Xmx}, expect: {at_most: 31g}}',
      '  - {id: thr, title: T, severity: low, why: W, read: {api: {path: _cluster/settings, pick: a.b}}, expect: {equals: "true"}}',
      '  - {id: age, title: A, severity: info, why: W, read: {certificate: x.pem, field: days_left}, expect: {at_least: 30d}}',
      '  - {id: pl, title: P, severity: info, why: W, read: plugins, expect: {same_on_nodes: true}, remedy: null}',
    ].join('\n'),
    'acme.yml',
  );
  t.match(pack, {
    name: 'acme',
    origin: 'acme.yml',
    checks: [
      {
        fullId: 'acme/heap',
        each: 'node',
        read: { kind: 'jvm_option', option: '-Xmx' },
        expect: [{ kind: 'at_most', value: 31 * 2 ** 30 }],
      },
      { fullId: 'acme/thr', each: 'cluster', read: { kind: 'api', path: '_cluster/settings', pick: 'a.b' } },
      {
        fullId: 'acme/age',
        read: { kind: 'certificate', setting: 'x.pem', field: 'days_left' },
        expect: [{ kind: 'at_least', value: 30 }],
      },
      { fullId: 'acme/pl', read: { kind: 'plugins' }, expect: [{ kind: 'same_on_nodes' }] },
    ],
  });
  t.notOk(pack?.checks[3]?.remedy);
});

t.test('units', async (t) => {
  for (const [v, n] of [
    ['512m', 512 * 2 ** 20],
    ['1G', 2 ** 30],
    ['2kb', 2048],
    ['262144', 262144],
    [7, 7],
    ['30d', 30],
  ] as const)
    t.equal(unitNumber(v), n, String(v));
  for (const v of ['lots', '1x', '', '-1', null]) t.equal(unitNumber(v), undefined, String(v));
});

t.test('loadPacks: a folder in name order, every file, every problem, names loaded twice, the size cap', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'packs-'));
  await mkdir(join(dir, 'set'));
  const pack = (name: string) =>
    `smdoctor_pack: 1\nname: ${name}\nchecks:\n  - {id: m, title: M, severity: low, why: W, read: memory, expect: {at_least: 1g}}\n`;
  await writeFile(join(dir, 'set', 'b.yml'), pack('bravo'));
  await writeFile(join(dir, 'set', 'a.yml'), pack('alpha'));
  await writeFile(join(dir, 'set', 'notes.txt'), 'not a pack');
  const packs = await loadPacks(['set'], { cwd: dir, maxBytes: 1e6 });
  t.same(
    packs.map((p) => [p.name, p.origin]),
    [
      ['alpha', 'set/a.yml'],
      ['bravo', 'set/b.yml'],
    ],
  );
  await writeFile(join(dir, 'twin.yml'), pack('alpha'));
  await writeFile(join(dir, 'bad.yml'), 'smdoctor_pack: 1\nname: x\nchecks: 3\n');
  const err = await loadPacks(['set', 'twin.yml', 'bad.yml', 'missing.yml'], { cwd: dir, maxBytes: 1e6 }).catch(
    (e) => e,
  );
  t.type(err, PackLoadError);
  t.same(
    (err as PackLoadError).problems.map((p) => `${p.file}:${p.line ?? ''}`),
    ['twin.yml:1', 'bad.yml:3', 'missing.yml:'],
  );
  t.match(
    (err as Error).message,
    /^3 problems, nothing was run:\ntwin\.yml:1: pack name 'alpha' is loaded twice \(also set\/a\.yml\)/,
  );
  const big = await loadPacks(['set'], { cwd: dir, maxBytes: 10 }).catch((e) => e);
  t.match((big as Error).message, /set\/a\.yml: .*past the limit/);
});

t.test('builtin:NAME names a shipped pack; an unknown name is a usage error', async (t) => {
  const err = await loadPacks(['builtin:no-such'], { cwd: '/', maxBytes: 1e6 }).catch((e) => e);
  t.match((err as Error).message, /builtin:no-such: no such builtin pack/);
});
