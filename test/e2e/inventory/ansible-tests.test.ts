/**
 * Ansible's own test material (test/fixtures/ansible-tests/cases.yml) read by smdoctor and by ansible-inventory /
 * ansible -m debug: same hosts, groups, values and types; decrypted values are compared by digest, never printed.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { ansibleSettings } from '../../../src/inventory/ansiblecfg.ts';
import { rawVars } from '../../../src/inventory/lazy.ts';
import { loadInventory } from '../../../src/inventory/load.ts';
import { selectHosts } from '../../../src/inventory/select.ts';
import type { Inventory } from '../../../src/inventory/types.ts';
import { vaultSecrets } from '../../../src/inventory/vaultpass.ts';
import { isSecretValue } from '../../../src/text/index.ts';
import { hostGroups } from '../../helpers/inventory/ansible.ts';
import {
  ansibleHosts,
  ansibleList,
  ansibleResolve,
  ansibleVar,
  layOut,
  loadCases,
  scratch,
  type Case,
  type Laid,
} from '../../helpers/inventory/ansible-cases.ts';

// a long file of ansible runs; SMD_CASES=regex runs the matching cases only (while investigating one)
t.setTimeout(1_800_000);
t.jobs = 2;
const root = scratch();
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const only = process.env.SMD_CASES ? new RegExp(process.env.SMD_CASES) : undefined;
const cases = loadCases();

t.test('at least 100 cases, each naming its source', async (t) => {
  t.ok(cases.length >= 100, `${cases.length} cases`);
  for (const c of cases) t.ok(c.name && c.source, c.name);
  t.equal(new Set(cases.map((c) => c.name)).size, cases.length, 'names are unique');
});

async function ours(l: Laid): Promise<Inventory | Error> {
  const env = { HOME: l.cwd, ...l.env };
  try {
    const settings = ansibleSettings(l.cwd, env);
    const opts: { vaultId: string[]; vaultPasswordFile: string[] } = { vaultId: [], vaultPasswordFile: [] };
    for (let i = 0; i < l.vault.length; i += 2)
      (l.vault[i] === '--vault-id' ? opts.vaultId : opts.vaultPasswordFile).push(l.vault[i + 1]);
    const secrets = await vaultSecrets(opts, { cwd: l.dir, env, settings });
    return await loadInventory(l.sources, { secrets, env, settings });
  } catch (e) {
    return e as Error;
  }
}

const digest = (v: unknown) => `sha256:${createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 16)}`;
const needsAnsible = (v: unknown): boolean => JSON.stringify(v ?? null).match(/\{\{|\{%|__ansible_vault/) !== null;

async function check(t: Tap, c: Case): Promise<void> {
  const l = layOut(c, root);
  const [list, mine] = await Promise.all([ansibleList(l), ours(l)]);
  if (!list) {
    t.ok(c.fails, 'ansible refuses it: the case says so');
    t.ok(mine instanceof Error, `smdoctor refuses it too`);
    return;
  }
  if (mine instanceof Error) return void t.fail(`smdoctor refused what ansible reads: ${mine.message}`);
  const hostvars = (list._meta?.hostvars ?? {}) as Record<string, Record<string, unknown>>;
  const groups = hostGroups(list);
  t.strictSame([...mine.hosts.keys()].sort(), Object.keys(groups).sort(), 'hosts');
  for (const [h, gs] of Object.entries(groups)) t.strictSame(mine.hosts.get(h)?.groups, gs, `groups of ${h}`);
  for (const h of Object.keys(groups)) {
    const raw = JSON.parse(JSON.stringify(rawVars(mine.hosts.get(h)!.vars))) as Record<string, unknown>;
    t.strictSame(raw, hostvars[h] ?? {}, `variables of ${h} as written`);
  }
  // smdoctor lists selected hosts in inventory order, ansible in pattern order: the sets are compared
  for (const p of c.limit ?? [])
    t.strictSame(selectHosts(mine, p).sort(), (await ansibleHosts(l, p))?.sort(), `--limit '${p}'`);
  const names = c.resolve ?? [...new Set(Object.values(hostvars).flatMap((v) => Object.keys(v)))];
  const worked = c.resolve !== undefined || Object.values(hostvars).some(needsAnsible);
  if (!names.length || !worked) {
    t.notOk(c.fails, 'both read it: the case does not expect a refusal');
    return;
  }
  const real = await ansibleResolve(l, names);
  // a whole variable that is a template: its value as `var=` shows it (text in ansible-core 2.14)
  const templated = names.filter((k) =>
    Object.values(hostvars).some((v) => typeof v[k] === 'string' && (v[k] as string).includes('{{')),
  );
  for (const k of real ? templated : []) {
    const whole = await ansibleVar(l, k);
    for (const [h, v] of Object.entries(whole ?? {})) if (real![h] && k in real![h]) real![h][k] = v;
  }
  // a connection variable such as ansible_host exists in a task's context even when the inventory has none
  for (const [h, v] of Object.entries(real ?? {}))
    for (const k of Object.keys(v)) if (!(k in (hostvars[h] ?? {}))) delete v[k];
  const read: Record<string, Record<string, unknown>> = {};
  let refused: Error | undefined;
  for (const [h, host] of mine.hosts) {
    read[h] = {};
    for (const k of names) {
      if (!(k in host.vars)) continue;
      try {
        const v = host.vars[k];
        // a decrypted value is compared by digest, so that a failure never prints it
        const secret = isSecretValue(v) || JSON.stringify(rawVars(host.vars)[k] ?? null).includes('__ansible_vault');
        read[h][k] = secret ? digest(v) : v;
        if (secret && real?.[h]?.[k] !== undefined) real[h][k] = digest(real[h][k]);
      } catch (e) {
        refused = e as Error;
      }
    }
  }
  if (!real || refused) {
    t.ok(c.fails, `a refusal is expected (ansible ${real ? 'reads' : 'refuses'} the values)`);
    t.ok(!real && refused, `both refuse to read them${refused ? `: ${refused.message}` : ''}`);
    return;
  }
  t.notOk(c.fails, 'both read it: the case does not expect a refusal');
  t.strictSame(read, real, 'values templated and decrypted, with their types');
}

type Tap = typeof t;

for (const c of cases.filter((x) => !only || only.test(x.name)))
  t.test(`${c.name} (${c.source})`, (t) => check(t as unknown as Tap, c));
