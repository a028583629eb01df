/**
 * What export writes is checked as Ansible reads it: a plan dated in anything but ISO 8601 is refused, a file that
 * reads otherwise under YAML 1.1 or lands outside -o DIR leaves nothing behind (exit 3).
 */
import t from 'tap';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { exitCodeFor } from '../../../src/base/errors.ts';
import { readPlan } from '../../../src/fix/plan-file.ts';
import { writePlaybookDir } from '../../../src/export/write.ts';
import { readsAsMeant } from '../../../src/export/yaml11.ts';
import { SCHEMA_VERSION } from '../../../src/base/version.ts';
import { M1, cluster, edit, report, run } from '../../helpers/export/plan-fixtures.ts';

let work: string;
t.before(async () => {
  work = await mkdtemp(join(tmpdir(), 'smdoctor-written-'));
});
t.teardown(() => rm(work, { recursive: true, force: true }));

t.test("a plan's generated_at: ISO 8601 only (it was outside the digest and written into site.yml)", async (t) => {
  const now = Date.parse('2026-11-27T03:00:00.000Z');
  const cases: Array<[string, boolean]> = [
    ['2026-11-27T02:59:00.000Z', true],
    ['2026-11-27T02:59:00Z', true],
    ['2026-11-27T03:59:00+01:00', true],
    ['Fri Nov 27 2026 02:59:00 GMT+0000 (x\u0085- hosts: localhost)', false],
    ['Fri Nov 27 2026 02:59:00 GMT+0000 (Coordinated Universal Time)', false],
    ['2026-11-27T02:59:00.000Z\u0085- hosts: localhost', false],
    ['2026-11-27', false],
    ['2026-11-27 02:59:00Z', false],
  ];
  for (const [at, ok] of cases) {
    const file = join(work, 'plan.json');
    const plan = { schema_version: SCHEMA_VERSION, tool: 'smdoctor', version: '0', mode: 'audit', generated_at: at };
    const summary = { clusters: 0, hosts: 0, unreachable: 0, checks_failed: 0 };
    await writeFile(file, JSON.stringify({ ...plan, clusters: [], summary }));
    const read = readPlan(file, 86_400_000, now);
    if (ok) await t.resolves(read, JSON.stringify(at));
    else await t.rejects(read, { message: /generated_at is not an ISO 8601 time/ }, JSON.stringify(at));
  }
});

t.test('YAML 1.1 reads NEL, U+2028, U+2029 and CR as line breaks: such text is not what was meant', async (t) => {
  const meant = [{ name: 'a', tasks: [] }];
  const cases: Array<[string, string, boolean]> = [
    ['as written', '- name: a\n  tasks: []\n', true],
    ['NEL ends a comment', '# x\u0085- name: b\n- name: a\n  tasks: []\n', false],
    ['U+2028 in a plain scalar', '- name: a\u2028  b: c\n  tasks: []\n', false],
    ['U+2029 in a plain scalar', '- name: a\u2029- x\n  tasks: []\n', false],
    ['CR ends a comment', '# x\r- name: b\n- name: a\n  tasks: []\n', false],
    ['a YAML 1.1 boolean', '- name: yes\n  tasks: []\n', false],
    ['two documents', '- name: a\n  tasks: []\n---\n- name: b\n', false],
  ];
  for (const [name, text, ok] of cases) t.equal(readsAsMeant(text, meant), ok, name);
});

t.test('a file that reads otherwise, or lands outside the directory: nothing written, exit 3', async (t) => {
  const cases: Array<[string, { path: string; content: string; yaml?: unknown }, RegExp]> = [
    [
      'NEL in a comment',
      { path: 'site.yml', content: '# x\u0085- hosts: all\n- hosts: localhost\n', yaml: [{ hosts: 'localhost' }] },
      /site\.yml: read as YAML 1\.1 .* not the playbook smdoctor meant to write/,
    ],
    ['.. in a path', { path: 'files/hosts/m1/../../../../escaped', content: 'x' }, /outside the playbook directory/],
  ];
  for (const [name, file, why] of cases) {
    const dir = join(work, `pb-${name.replace(/\W/g, '')}`);
    const err = await writePlaybookDir(dir, [{ path: 'files/a.json', content: '{}' }, file]).catch((e: Error) => e);
    t.match(err, { message: why }, name);
    t.equal(exitCodeFor(err), 3, `${name}: exit 3`);
    t.same(
      (await readdir(work)).filter((f) => f !== 'plan.json'),
      [],
      `${name}: nothing left behind`,
    );
  }
});

t.test("an edited file's path with .. (from search_home) is not exported", async (t) => {
  const a = edit('m1', M1, undefined, undefined, '/opt/search/../../../tmp/x/opensearch.yml');
  const out = await run(report(cluster([a])), { m1: M1 });
  t.match(out, { ok: false, problems: [/path is not absolute and plain \(it holds \. or \.\.\)/] });
});
