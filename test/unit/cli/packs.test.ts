import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { RunAuditOptions } from '../../../src/audit/run.ts';
import type { CheckResult, Pack, Report } from '../../../src/model/index.ts';
import { runCli } from '../../helpers/cli.ts';

const EXAMPLE = new URL('../../../examples/packs/acme-search.yml', import.meta.url).pathname;

async function workdir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'packs-cli-'));
  await writeFile(join(dir, 'inventory.yml'), 'all:\n  hosts:\n    d1:\n      ansible_host: 127.0.0.1\n');
  await writeFile(
    join(dir, 'waivers.yml'),
    [
      'smdoctor_waivers: 1',
      'waivers:',
      '  - check: acme-search/heap-xms-equals-xmx',
      '    reason: OPS-123, heap being resized',
      '    expires: 2999-01-31',
      '  - check: acme-search/max-map-count',
      '    reason: OPS-99',
      '    expires: 2000-01-01',
      '  - check: acme-search/no-such-check',
      '    reason: typo',
    ].join('\n'),
  );
  return dir;
}

/** An audit that records what it was given and answers one result per pack check, with the statuses given (else pass). */
function fakeAudit(seen: RunAuditOptions[], statuses: Record<string, CheckResult['status']>) {
  return async (o: RunAuditOptions): Promise<Report> => {
    seen.push(o);
    const packs = (o as RunAuditOptions & { packs?: Pack[] }).packs ?? [];
    const checks: CheckResult[] = packs.flatMap((p) =>
      p.checks.map((k, i) => ({
        id: k.fullId as CheckResult['id'],
        order: 6 + i,
        status: statuses[k.id] ?? 'pass',
        severity: k.severity,
        title: k.title,
        why: k.why,
        reason: statuses[k.id] === 'fail' ? 'fails on d1' : 'holds',
        findings: statuses[k.id] === 'fail' ? [{ host: 'd1', message: 'found on d1' }] : [],
        actions: [],
      })),
    );
    return {
      tool: 'smdoctor',
      version: '0.4.0',
      mode: 'audit',
      clusters: [{ api_url: 'https://127.0.0.1:9200', name: 'prod-eu', nodes: [], notes: [], checks }],
      summary: {
        clusters: 1,
        hosts: 1,
        unreachable: 0,
        checks_failed: checks.filter((k) => k.status === 'fail').length,
      },
    };
  };
}

t.test('audit --pack: the packs reach the audit, in order, before any host', async (t) => {
  const dir = await workdir();
  const seen: RunAuditOptions[] = [];
  const r = await runCli(['audit', '-i', 'inventory.yml', '--pack', EXAMPLE, '--format', 'json'], {
    cwd: dir,
    deps: { audit: fakeAudit(seen, {}) },
  });
  t.equal(r.code, 0, r.err);
  const packs = (seen[0] as RunAuditOptions & { packs?: Pack[] }).packs;
  t.same(
    packs?.map((p) => p.name),
    ['acme-search'],
  );
  t.equal(packs?.[0]?.checks[0]?.fullId, 'acme-search/heap-xms-equals-xmx');
});

t.test('a refused pack or waivers file: exit 2, every problem, the audit never runs', async (t) => {
  const dir = await workdir();
  await writeFile(join(dir, 'bad.yml'), 'smdoctor_pack: 1\nname: Bad\nchecks: []\n');
  await writeFile(join(dir, 'badw.yml'), 'smdoctor_waivers: 1\nwaivers:\n  - check: a/b\n    expires: 2027-02-30\n');
  for (const args of [
    ['--pack', 'bad.yml'],
    ['--waivers', 'badw.yml'],
    ['--severity', 'urgent'],
  ]) {
    const seen: RunAuditOptions[] = [];
    const r = await runCli(['audit', '-i', 'inventory.yml', ...args], {
      cwd: dir,
      deps: { audit: fakeAudit(seen, {}) },
    });
    t.equal(r.code, 2, args.join(' '));
    t.equal(seen.length, 0, `${args.join(' ')}: nothing audited`);
  }
  const r = await runCli(['audit', '-i', 'inventory.yml', '--pack', 'bad.yml'], { cwd: dir });
  t.match(r.err, /bad\.yml:2:7: name "Bad" is not/);
  t.match(r.err, /bad\.yml:3:9: checks is an empty list/);
  const w = await runCli(['audit', '-i', 'inventory.yml', '--waivers', 'badw.yml'], { cwd: dir });
  t.match(w.err, /badw\.yml:3:5: a waiver lacks 'reason'/);
  t.match(w.err, /badw\.yml:4:14: expires "2027-02-30" is not a day/);
});

t.test('exit codes under waivers and --severity', async (t) => {
  const dir = await workdir();
  const fails = { 'heap-xms-equals-xmx': 'fail', 'max-map-count': 'fail' } as const;
  const lowFails = { 'mail-password-in-keystore': 'fail', 'disk-threshold-on': 'fail' } as const;
  const cases: Array<{ name: string; args: string[]; statuses: Record<string, CheckResult['status']>; code: number }> =
    [
      { name: 'two high failures', args: [], statuses: fails, code: 1 },
      {
        name: 'one waived, the other waived by an expired waiver',
        args: ['--waivers', 'waivers.yml'],
        statuses: fails,
        code: 1,
      },
      {
        name: 'only the waived one fails',
        args: ['--waivers', 'waivers.yml'],
        statuses: { 'heap-xms-equals-xmx': 'fail' },
        code: 0,
      },
      { name: 'medium failures under --severity high', args: ['--severity', 'high'], statuses: lowFails, code: 0 },
      { name: 'medium failures under --severity medium', args: ['--severity', 'medium'], statuses: lowFails, code: 1 },
      { name: 'high failures under --severity critical', args: ['--severity', 'critical'], statuses: fails, code: 0 },
      {
        name: 'an error under --severity critical',
        args: ['--severity', 'critical'],
        statuses: { 'max-map-count': 'error' },
        code: 0,
      },
      { name: 'an error', args: [], statuses: { 'max-map-count': 'error' }, code: 3 },
    ];
  for (const c of cases) {
    const r = await runCli(['audit', '-i', 'inventory.yml', '--pack', EXAMPLE, '--format', 'json', ...c.args], {
      cwd: dir,
      deps: { audit: fakeAudit([], c.statuses) },
    });
    t.equal(r.code, c.code, c.name);
  }
});

t.test('waivers in the report: reason and expiry, the expired one noted, the unknown one warned of', async (t) => {
  const dir = await workdir();
  const r = await runCli(
    ['audit', '-i', 'inventory.yml', '--pack', EXAMPLE, '--waivers', 'waivers.yml', '--format', 'json'],
    { cwd: dir, deps: { audit: fakeAudit([], { 'heap-xms-equals-xmx': 'fail', 'max-map-count': 'fail' }) } },
  );
  const rep = JSON.parse(r.out) as Report;
  const heap = rep.clusters[0]!.checks.find((k) => k.id === 'acme-search/heap-xms-equals-xmx');
  t.match(heap, { status: 'waived', waiver: { reason: 'OPS-123, heap being resized', expires: '2999-01-31' } });
  t.match(
    rep.clusters[0]!.checks.find((k) => k.id === 'acme-search/max-map-count'),
    { status: 'fail' },
  );
  t.match(rep.clusters[0]!.notes, [
    { message: /waiver of acme-search\/max-map-count at waivers\.yml:6 expired on 2000-01-01/ },
  ]);
  t.match(r.err, /warning: waivers\.yml:9: the waiver names acme-search\/no-such-check, which no loaded check has/);
  t.match(r.err, /warning: waivers\.yml:6: the waiver of acme-search\/max-map-count expired on 2000-01-01: ignored/);
});

t.test('pack validate and pack list', async (t) => {
  const dir = await workdir();
  await writeFile(join(dir, 'bad.yml'), 'smdoctor_pack: 1\nname: x\nchecks:\n  - id: a\n');
  const v = await runCli(['pack', 'validate', EXAMPLE, 'waivers.yml', 'bad.yml', 'missing.yml'], { cwd: dir });
  t.equal(v.code, 2);
  t.match(v.out, /acme-search\.yml: ok \(pack acme-search, 8 checks\)/);
  t.match(v.out, /waivers\.yml: ok \(waivers, 3\)/);
  t.match(v.err, /bad\.yml:4:5: a check lacks 'title'/);
  t.match(v.err, /missing\.yml: cannot be read/);
  const ok = await runCli(['pack', 'validate', EXAMPLE], { cwd: dir });
  t.equal(ok.code, 0);
  const folder = await runCli(['pack', 'validate', join(EXAMPLE, '..')], { cwd: dir });
  t.equal(folder.code, 0, folder.err);
  t.match(folder.out, /acme-search\.yml: ok/);
  t.equal((await runCli(['pack', 'validate', 'none.yml'], { cwd: dir })).code, 2, 'a file that is not there');
  await mkdir(join(dir, 'empty'));
  t.equal((await runCli(['pack', 'validate', 'empty'], { cwd: dir })).code, 2, 'a folder without packs');
  const l = await runCli(['pack', 'list', '--pack', EXAMPLE], { cwd: dir });
  t.equal(l.code, 0);
  t.match(l.out, /^base-limit-document +critical/m);
  t.match(l.out, /^acme-search\/heap-xms-equals-xmx +high +Xms and Xmx are equal$/m);
});

t.test('--pack, --waivers and --severity on every command that audits', async (t) => {
  for (const argv of [['audit'], ['fix'], ['export', 'ansible']]) {
    const r = await runCli([...argv, '--help']);
    for (const f of ['--pack', '--waivers', '--severity']) t.match(r.out, f, `${argv.join(' ')} ${f}`);
  }
});

t.test(
  'a reviewed plan with pack checks: re-derived with the vendor ids by --check and the packs by --pack',
  async (t) => {
    const { requirePlanPacks } = await import('../../../src/cli/packs.ts');
    const { plannedChecks } = await import('../../../src/fix/plan-file.ts');
    const { parsePack } = await import('../../../src/packs/load/load.ts');
    const plan = await fakeAudit(
      [],
      {},
    )({
      packs: [parsePack((await import('node:fs')).readFileSync(EXAMPLE, 'utf8'), EXAMPLE).pack!],
    } as unknown as RunAuditOptions);
    plan.clusters[0]!.checks.unshift({
      id: 'master-plugins',
      order: 4,
      status: 'pass',
      reason: 'ok',
      findings: [],
      actions: [],
    });
    t.equal(plannedChecks(plan), 'master-plugins', 'pack ids are not given to --check');
    t.throws(() => requirePlanPacks(plan, [], 'plan.json'), {
      message:
        /plan\.json: the plan was made with pack checks not loaded now \(acme-search\/heap-xms-equals-xmx, .*\): pass the same --pack options/,
    });
    const { pack } = parsePack((await import('node:fs')).readFileSync(EXAMPLE, 'utf8'), EXAMPLE);
    t.doesNotThrow(() => requirePlanPacks(plan, [pack!], 'plan.json'));
  },
);

t.test('a waiver expires when the clock passes its day, in a run that started before (serve’s cycles)', async (t) => {
  const { packSetup } = await import('../../../src/audit/pack-setup.ts');
  const dir = await workdir();
  await writeFile(
    join(dir, 'midnight.yml'),
    'smdoctor_waivers: 1\nwaivers:\n  - check: acme-search/max-map-count\n    reason: OPS-7\n    expires: 2030-06-01\n',
  );
  let clock = Date.parse('2030-06-01T23:59:30Z');
  const setup = await packSetup(
    { pack: [EXAMPLE], waivers: 'midnight.yml' },
    { cwd: dir, maxBytes: 1 << 20, now: () => clock },
  );
  const audit = fakeAudit([], { 'max-map-count': 'fail' });
  const options = { packs: setup.packs } as unknown as RunAuditOptions;
  const statusOf = async () =>
    setup
      .waive(await audit(options), () => undefined)
      .clusters[0]!.checks.find((k) => k.id === 'acme-search/max-map-count')!.status;
  t.equal(await statusOf(), 'waived', 'on its last day');
  clock = Date.parse('2030-06-02T00:00:30Z');
  t.equal(await statusOf(), 'fail', 'the day after, the same run counts the failure again');
});
