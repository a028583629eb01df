/**
 * Text from a node, the API, the inventory or the plan file never becomes playbook YAML, Jinja or a comment: each
 * hostile value is planted in a plan, exported, and real ansible-playbook must find the play smdoctor meant, running
 * no command of the planted text, even under --check.
 */
import t from 'tap';
import { parse } from 'yaml';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { execa } from 'execa';
import type { ClusterReport, Report } from '../../../src/model/index.ts';
import { writePlaybookDir } from '../../../src/export/write.ts';
import { M1, cluster, edit, report, restart, run } from '../../helpers/export/plan-fixtures.ts';

// ansible-playbook, twice: slow on a loaded machine
t.setTimeout(300_000);

const NEL = '\u0085';
let work: string;
let marker: string;
t.before(async () => {
  work = await mkdtemp(join(tmpdir(), 'smdoctor-hostile-'));
  marker = join(work, 'PWNED');
});
t.teardown(() => rm(work, { recursive: true, force: true }));

/** A task PyYAML would read after the line break `br`, at the indentation `pad`. */
const task = (br: string, pad: string) =>
  `x${br}${pad}- name: planted${br}${pad}  ansible.builtin.command: touch ${marker}${br}${pad}  check_mode: false${br}${pad}#`;
/** A whole play, for text written at the top of site.yml. */
const play = (br: string) =>
  `x${br}- hosts: localhost${br}  gather_facts: false${br}  tasks:${br}    - ansible.builtin.command: touch ${marker}${br}      check_mode: false${br}#`;
const jinja = () => `{{ lookup('pipe', 'touch ${marker}') }}`;

type Plant = (p: Report, c: ClusterReport) => void;
const finding =
  (text: string): Plant =>
  (_p, c) => {
    c.checks[0]!.findings[0]!.message = `node.attr.node_with_sme is true on master m1 ${text}`;
  };

// each way in the review found, with the field it took
const cases: Array<[string, () => Plant]> = [
  ['NEL in a finding (a dashboards master URL)', () => finding(task(NEL, '        '))],
  ['NEL in a finding (index.auto_expand_replicas from the API)', () => finding(task(NEL, '    '))],
  ['U+2028 in a finding', () => finding(task('\u2028', '        '))],
  ['U+2029 in a finding', () => finding(task('\u2029', '        '))],
  ['CR in a finding', () => finding(task('\r', '        '))],
  ['Jinja in a finding', () => finding(jinja())],
  [
    "Jinja in the elected manager's name",
    () => (_p, c) => {
      c.pins!.elected_manager = `m1${jinja()}`;
    },
  ],
  [
    'NEL in generated_at of the plan',
    () => (p) => {
      p.generated_at = `Fri Nov 27 2026 03:00:00 GMT+0000 (${play(NEL)})`;
    },
  ],
  [
    'a quote in api_url',
    () => (_p, c) => {
      c.api_url = `https://127.0.0.1:9/')+lookup('pipe','touch ${marker}')+('`;
    },
  ],
  [
    'NEL and Jinja in the cluster name',
    () => (_p, c) => {
      c.name = `prod ${play(NEL)} ${jinja()}`;
    },
  ],
  [
    'NEL in a restart command',
    () => (_p, c) => {
      const r = c.checks[0]!.actions.find((a) => a.type === 'restart-service')!;
      if (r.type === 'restart-service') r.command = `sudo -n systemctl restart opensearch ${task(NEL, '        ')}`;
    },
  ],
];

const planted = (plant: Plant): Report => {
  const p = report(cluster([edit('m1', M1), restart('m1')]));
  p.clusters[0]!.api_url = 'https://127.0.0.1:9';
  plant(p, p.clusters[0]!);
  return p;
};

/** Nothing of the planted text in site.yml, which reads under YAML 1.1 as exactly the plays smdoctor built. */
t.test('no planted text reaches site.yml, whatever the field', async (t) => {
  for (const [name, plant] of cases) {
    const out = await run(planted(plant()), { m1: M1 });
    if (!out.ok) {
      t.fail(`${name}: not exported: ${out.problems.join('; ')}`);
      continue;
    }
    const site = out.files.find((f) => f.path === 'site.yml')!.content as string;
    t.notMatch(site, /PWNED|lookup\('pipe'|planted|\u0085|\u2028|\u2029|\r/, `${name}: not in site.yml`);
    const data = String(out.files.find((f) => f.path === 'files/cluster-1.json')!.content);
    t.match(data, /PWNED/, `${name}: in the data file the play reads instead`);
  }
});

t.test('real ansible-playbook finds the meant play and runs nothing planted, under --check', async (t) => {
  const all: Plant = (p, c) => {
    for (const [, plant] of cases) plant()(p, c);
  };
  const plan = planted(all);
  const out = await run(plan, { m1: M1 });
  if (!out.ok) throw new Error(out.problems.join('; '));
  const dir = join(work, 'pb');
  await writePlaybookDir(dir, out.files);
  const inv = join(work, 'hosts.ini');
  await writeFile(inv, 'm1 ansible_connection=local api_url=https://127.0.0.1:9\nd1 ansible_connection=local\n');
  const env = { ANSIBLE_NOCOLOR: '1', ANSIBLE_LOCALHOST_WARNING: 'false', ANSIBLE_LOCAL_TEMP: join(work, 'tmp') };
  const list = await execa('ansible-playbook', ['-i', inv, join(dir, 'site.yml'), '--list-tasks'], {
    reject: false,
    env,
  });
  t.equal(list.exitCode, 0, list.stderr);
  const meant = (parse(await readFile(join(dir, 'site.yml'), 'utf8')) as unknown[]).length;
  t.equal([...list.stdout.matchAll(/^\s*play #\d+/gm)].length, meant, 'the plays smdoctor wrote, no other');
  t.notMatch(list.stdout, /planted/, 'no planted task');
  const check = await execa('ansible-playbook', ['-i', inv, join(dir, 'site.yml'), '--check'], { reject: false, env });
  t.not(check.exitCode, 0, 'the pins fail: no API there');
  await t.rejects(stat(marker), { code: 'ENOENT' }, 'no planted command ran');
});
