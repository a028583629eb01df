/**
 * How many of the real-world corpus' resolutions (../shared/real-world/ansible-ssh: public ssh_configs and Ansible
 * inventories with `ssh -G` and `ansible-inventory` answers stored) smdoctor agrees with. Prints the counts and each
 * disagreement. Usage: tsx scripts/real-world-parity.ts [CORPUS_DIR]
 */
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { graphText, listJson } from '../src/inventory/render.ts';
import { openInventory } from '../src/inventory/open.ts';
import { rawVars } from '../src/inventory/lazy.ts';
import { stringifyJson } from '../src/base/json-text.ts';
import { numbersAsText } from '../test/helpers/json-numbers.ts';
import { interpretSsh } from '../src/reach/ssh-options.ts';
import { parseSshG, subsetResolve } from '../src/transport/ssh-config.ts';

const corpus = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'shared', 'real-world', 'ansible-ssh');
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as {
  inventories: { name: string; source: string; symlinks: { path: string; target: string }[] }[];
  ssh_configs: { name: string; config: string }[];
};
const scratch = mkdtempSync(join(tmpdir(), 'smd-real-world-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const misses: string[] = [];
const tally = { ssh: [0, 0], parser: [0, 0], inventory: [0, 0], listing: [0, 0] };
const count = (k: keyof typeof tally, ok: boolean, what: string) => {
  tally[k][0] += ok ? 1 : 0;
  tally[k][1] += 1;
  if (!ok) misses.push(`${k}: ${what}`);
};

// ssh_configs: each (arguments, host) answer, option by option as smdoctor uses it
const oracle = JSON.parse(readFileSync(join(corpus, 'oracle', 'ssh_configs.json'), 'utf8')) as Record<
  string,
  { answers: Record<string, string>; create: string[] }
>;
for (const c of manifest.ssh_configs) {
  const home = join(scratch, c.name);
  const cwd = join(scratch, `${c.name}-cwd`);
  mkdirSync(cwd, { recursive: true });
  cpSync(join(corpus, 'ssh_configs', c.name, dirname(c.config)), join(home, '.ssh'), { recursive: true });
  for (const f of oracle[c.name]!.create) {
    mkdirSync(dirname(join(home, f)), { recursive: true });
    writeFileSync(join(home, f), 'placeholder');
  }
  const configFile = join(home, '.ssh', c.config.split('/').pop()!);
  const env = { HOME: home, USER: 'root', PATH: '' };
  for (const [key, text] of Object.entries(oracle[c.name]!.answers)) {
    const q = JSON.parse(key) as [string[], string] | [string];
    if (q.length === 1) continue;
    const [args, dest] = q;
    if (text.startsWith('@ERROR@')) {
      // ssh refuses the file: the parser must refuse it too
      let refused = false;
      try {
        subsetResolve({ dest, configFile, args, env });
      } catch {
        refused = true;
      }
      count('parser', refused, `${c.name} ${dest}: ssh refuses (${text.slice(7).split('\n')[0]}), the parser reads it`);
      continue;
    }
    const real = parseSshG(text.replaceAll('@HOME@', home));
    const truth = interpretSsh(real, { home, cwd, dest });
    // the ssh path: ssh -G's own answer, read as smdoctor reads it
    for (const [k, v] of Object.entries(truth))
      count('ssh', v !== undefined || k !== 'hostKeyChecking', `${c.name} ${dest} ${k} unread`);
    let sub;
    try {
      sub = interpretSsh(subsetResolve({ dest, configFile, args, env }), { home, cwd, dest });
    } catch (e) {
      for (const k of Object.keys(truth)) count('parser', false, `${c.name} ${dest} ${k}: ${(e as Error).message}`);
      continue;
    }
    for (const [k, v] of Object.entries(truth)) {
      const mine = (sub as unknown as Record<string, unknown>)[k];
      count(
        'parser',
        JSON.stringify(mine) === JSON.stringify(v),
        `${c.name} ${dest} ${k}: ${JSON.stringify(mine)} vs ${JSON.stringify(v)}`,
      );
    }
  }
}

// inventories: --list (hosts, groups, variables), --graph, --host for each host asked
const groupsOf = (list: Record<string, { hosts?: string[]; children?: string[] }>) => {
  const parents = new Map<string, string[]>();
  for (const [g, b] of Object.entries(list))
    for (const ch of b.children ?? []) parents.set(ch, [...(parents.get(ch) ?? []), g]);
  const out: Record<string, string[]> = {};
  for (const [g, b] of Object.entries(list))
    for (const h of b.hosts ?? []) {
      const seen = new Set<string>();
      const up = (x: string) => (seen.has(x) ? undefined : (seen.add(x), (parents.get(x) ?? []).forEach(up)));
      up(g);
      for (const x of out[h] ?? []) seen.add(x);
      out[h] = [...seen];
    }
  for (const h of Object.keys(out)) out[h] = out[h]!.filter((g) => g !== 'all').sort();
  return out;
};
// key order is not compared: ansible-inventory sorts keys
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x,
  );
for (const c of manifest.inventories) {
  let dir = join(corpus, 'inventories', c.name);
  // git stores a symbolic link as a file holding its target: laid out again as the link
  if (c.symlinks.length) {
    cpSync(dir, (dir = join(scratch, c.name)), { recursive: true });
    for (const l of c.symlinks) {
      rmSync(join(dir, l.path));
      symlinkSync(l.target, join(dir, l.path));
    }
  }
  const ora = join(corpus, 'oracle', 'inventories', c.name);
  const meta = JSON.parse(readFileSync(join(ora, 'oracle.json'), 'utf8')) as { host_queries: string[] };
  const env: NodeJS.ProcessEnv = { HOME: scratch, ANSIBLE_VAULT_PASSWORD_FILE: join(scratch, 'dummy-pass') };
  writeFileSync(join(scratch, 'dummy-pass'), 'dummy\n');
  let inv;
  try {
    inv = await openInventory({ inventory: [c.source] }, { cwd: dir, env });
  } catch (e) {
    for (const what of ['list', 'graph', ...meta.host_queries])
      count('inventory', false, `${c.name} ${what}: ${(e as Error).message.split('\n')[0]}`);
    continue;
  }
  // numbers compared as written: 25.0 is not 25
  const asWritten = (vars: unknown) => numbersAsText(stringifyJson(vars));
  const { _meta, ...list } = numbersAsText(readFileSync(join(ora, 'list.json'), 'utf8')) as Record<
    string,
    { hosts?: string[]; children?: string[]; hostvars?: Record<string, unknown> }
  >;
  const groups = groupsOf(list);
  const hostvars = _meta?.hostvars ?? {};
  const ours = Object.fromEntries([...inv.hosts].map(([h, x]) => [h, x.groups]));
  const oursVars = Object.fromEntries([...inv.hosts].map(([h, x]) => [h, asWritten(rawVars(x.vars))]));
  const wantVars = Object.fromEntries(Object.keys(groups).map((h) => [h, hostvars[h] ?? {}]));
  count('inventory', canon(ours) === canon(groups) && canon(oursVars) === canon(wantVars), `${c.name} list`);
  // `inventory --list` as a whole: ansible-inventory listed every case, so smdoctor refusing one is a miss
  let refused = '';
  try {
    listJson(inv, [...inv.hosts.keys()], env);
  } catch (e) {
    refused = (e as Error).message.split('\n')[0]!;
  }
  count('listing', !refused, `${c.name} inventory --list refused: ${refused}`);
  const graph = graphText(inv, [...inv.hosts.keys()]);
  count('inventory', graph === readFileSync(join(ora, 'graph.txt'), 'utf8'), `${c.name} graph`);
  meta.host_queries.forEach((h, i) => {
    const want = readFileSync(join(ora, `host.${i}.json`), 'utf8');
    const x = inv.hosts.get(h);
    const ok = x !== undefined && canon(asWritten(rawVars(x.vars))) === canon(numbersAsText(want));
    count('inventory', ok, `${c.name} --host ${h}`);
  });
}

for (const m of misses) console.log(m);
for (const [k, [ok, n]] of Object.entries(tally)) console.log(`${k}: ${ok} of ${n} agree`);
