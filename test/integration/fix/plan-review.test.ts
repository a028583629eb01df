/** fix --plan: exactly the reviewed plan, or nothing when anything it pinned drifted; stale or foreign plans refused. */
import t from 'tap';

// a lab and several full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { allocationLog, fix, restartOrder, rollingLab } from '../../helpers/fix/rolling.ts';
import { fixArgs } from '../../helpers/fix-args.ts';

let digest = '';

async function audit(inventory: string, dir: string): Promise<string> {
  const file = join(dir, `plan-${Date.now()}.json`);
  const r = await runCli(['audit', '-i', inventory, '--format', 'json', '-o', file, '--timeout', '60'], {
    cwd: '/tmp',
  });
  if (r.code !== 1) throw new Error(`audit exited ${r.code}: ${r.err}`);
  digest = /plan digest (sha256:\w+)/.exec(r.err)?.[1] ?? '';
  parseReport(await readFile(file, 'utf8'));
  return file;
}

t.test('drift: an edited file, a changed document, a node that left; a stale or foreign plan', async (t) => {
  const { lab, api } = await rollingLab(t);
  const plan = await audit(lab.inventoryPath, lab.dir);
  const doc = JSON.parse(await readFile(plan, 'utf8'));
  t.equal(doc.schema_version, 3);
  t.match(doc.clusters[0].pins, {
    elected_manager: 'n1',
    nodes: [{ name: 'd1' }, { name: 'n1' }, { name: 'n2' }, { name: 'n3' }],
  });

  // a file edited after the audit
  const n3 = lab.nodes.find((n) => n.name === 'n3')!;
  const yml = `${n3.searchHome}/config/opensearch.yml`;
  const text = await readFile(yml, 'utf8');
  await writeFile(yml, `${text}# edited after review\n`);
  const edited = await fix(lab.inventoryPath, lab.dir, '--plan', plan, '--timeout', '60');
  t.equal(edited.code, 3);
  t.match(
    edited.err,
    /drift: action \d+ \(set-yaml on n3 \S+opensearch\.yml\): base_sha256 planned [0-9a-f]{12}…, now [0-9a-f]{12}…/,
  );
  t.notMatch(await allocationLog(lab), /promote|recover/, 'no node was restarted');
  t.ok(
    edited.report.clusters[0]!.checks.flatMap((k) => k.actions).every((a) => a.status === 'skipped'),
    'nothing done',
  );
  await writeFile(yml, text);

  // a document changed after the audit (the plan only creates the base limit when absent: make one appear)
  const withDoc = JSON.parse(await readFile(plan, 'utf8'));
  withDoc.clusters[0].checks[0].actions.push({
    type: 'put-document',
    method: 'PUT',
    api_path: '/.sm_jsc_jobs/_doc/job-x',
    body: { a: 1 },
    op_type: 'create',
    status: 'planned',
  });
  const planDoc = join(lab.dir, 'plan-doc.json');
  await writeFile(planDoc, JSON.stringify(withDoc));
  await api.request({ method: 'PUT', path: '/.sm_jsc_jobs/_doc/job-x', body: { a: 0 } });
  const changed = await fix(lab.inventoryPath, lab.dir, '--plan', planDoc, '--timeout', '60');
  t.equal(changed.code, 3);
  t.match(
    changed.err,
    /drift: action \d+ \(put-document \/\.sm_jsc_jobs\/_doc\/job-x\): planned, but the audit now plans nothing there/,
  );

  // a node left (its restart is under way elsewhere): the node set no longer matches
  const older = JSON.parse(await readFile(plan, 'utf8'));
  older.clusters[0].pins.nodes.push({ name: 'n9', ip: '127.0.0.9', roles: ['data'] });
  const planNode = join(lab.dir, 'plan-node.json');
  await writeFile(planNode, JSON.stringify(older));
  const left = await fix(lab.inventoryPath, lab.dir, '--plan', planNode, '--timeout', '60');
  t.equal(left.code, 3);
  t.match(left.err, /drift: node set changed: left or changed n9/);

  // stale, and of another report shape: refused before anything connects
  const stale = { ...doc, generated_at: new Date(Date.now() - 25 * 3_600_000).toISOString() };
  await writeFile(join(lab.dir, 'stale.json'), JSON.stringify(stale));
  const s = await runCli(fixArgs(lab.inventoryPath, { format: null, plan: join(lab.dir, 'stale.json') }), {
    cwd: '/tmp',
  });
  t.equal(s.code, 2);
  t.match(s.err, /older than --plan-max-age/);
  const ok48 = await runCli(fixArgs(lab.inventoryPath, { plan: join(lab.dir, 'stale.json') }, '--plan-max-age', '1m'), {
    cwd: '/tmp',
  });
  t.equal(ok48.code, 2);
  await writeFile(join(lab.dir, 'v1.json'), JSON.stringify({ ...doc, schema_version: 1 }));
  const v1 = await runCli(fixArgs(lab.inventoryPath, { format: null, plan: join(lab.dir, 'v1.json') }), {
    cwd: '/tmp',
  });
  t.equal(v1.code, 2);
  t.match(v1.err, /schema_version 1/);

  // unchanged: carried out exactly, the rolling procedure included
  const wrong = await runCli(fixArgs(lab.inventoryPath, { format: null, plan: planNode }, '--approve', digest), {
    cwd: '/tmp',
  });
  t.equal(wrong.code, 2, 'another file than the approved one');
  t.match(wrong.err, /not the approved/);
  const applied = await fix(lab.inventoryPath, lab.dir, '--plan', plan, '--approve', digest, '--timeout', '60');
  t.equal(applied.code, 0, applied.err);
  t.same(restartOrder(applied.err), ['n2', 'n3', 'n1']);
  t.notMatch(await allocationLog(lab), /relocate/);
});
