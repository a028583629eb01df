/** Test helper: a case of test/fixtures/ansible-tests/cases.yml, laid out on disk and read by ansible and by smdoctor. */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { ansibleEnv } from './ansible.ts';

export interface Case {
  name: string;
  source: string;
  files: Record<string, string>;
  sources?: string[];
  /** What ansible reads instead (a script printing the JSON smdoctor reads as a file). */
  ansible_sources?: string[];
  vault?: string[];
  env?: Record<string, string>;
  resolve?: string[];
  limit?: string[];
  exec?: string[];
  fails?: boolean;
}

export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'ansible-tests');

export function loadCases(): Case[] {
  return parse(readFileSync(join(FIXTURES, 'cases.yml'), 'utf8'), { merge: true }) as Case[];
}

export interface Laid {
  dir: string;
  /** An empty directory to run from: ansible also reads group_vars/ beside the current directory. */
  cwd: string;
  sources: string[];
  ansibleSources: string[];
  vault: string[];
  env: Record<string, string>;
}

/** `label@file` or `file`, the file made absolute when the case holds it. */
function abs(dir: string, v: string): string {
  const at = v.indexOf('@');
  const file = at > 0 ? v.slice(at + 1) : v;
  if (!existsSync(join(dir, file))) return v;
  return at > 0 ? `${v.slice(0, at)}@${join(dir, file)}` : join(dir, file);
}

export function layOut(c: Case, root: string): Laid {
  const dir = mkdtempSync(join(root, 'case-'));
  for (const [p, text] of Object.entries(c.files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    if (text.startsWith('@')) copyFileSync(join(FIXTURES, 'files', text.slice(1)), join(dir, p));
    else writeFileSync(join(dir, p), text);
  }
  for (const x of c.exec ?? []) chmodSync(join(dir, x), 0o755);
  const cwd = mkdtempSync(join(root, 'cwd-'));
  const vault = (c.vault ?? []).map((a) => (a.startsWith('--') ? a : abs(dir, a)));
  const env = Object.fromEntries(
    Object.entries(c.env ?? {}).map(([k, v]) => [
      k,
      k.startsWith('ANSIBLE_VAULT_') && !k.endsWith('MATCH')
        ? v
            .split(',')
            .map((x) => abs(dir, x.trim()))
            .join(',')
        : v,
    ]),
  );
  const sources = (c.sources ?? ['hosts']).map((s) => join(dir, s));
  return { dir, cwd, sources, ansibleSources: c.ansible_sources?.map((s) => join(dir, s)) ?? sources, vault, env };
}

const run = (cmd: string, args: string[], l: Laid) =>
  execa(cmd, args, {
    cwd: l.cwd,
    env: { ...ansibleEnv, ANSIBLE_INVENTORY_ENABLED: 'script,yaml,ini', HOME: l.cwd, ...l.env },
    extendEnv: false,
    reject: false,
  });

const iArgs = (l: Laid) => l.ansibleSources.flatMap((s) => ['-i', s]);

/** `ansible-inventory --list`, or undefined when ansible refuses the inventory. */
export async function ansibleList(l: Laid): Promise<Record<string, any> | undefined> {
  const r = await run('ansible-inventory', [...iArgs(l), ...l.vault, '--list'], l);
  return r.exitCode === 0 ? (JSON.parse(r.stdout) as Record<string, any>) : undefined;
}

/** Each host's variables templated and decrypted by `ansible -m debug`, or undefined when ansible fails to. */
export async function ansibleResolve(
  l: Laid,
  names: string[],
): Promise<Record<string, Record<string, unknown>> | undefined> {
  const expr = `{{ { ${names.map((n) => `'${n}': (${n} | default('__undefined__'))`).join(', ')} } }}`;
  const r = await run('ansible', ['all', ...iArgs(l), ...l.vault, '-o', '-m', 'debug', '-a', `msg="${expr}"`], l);
  if (r.exitCode !== 0) return undefined;
  const out: Record<string, Record<string, unknown>> = {};
  for (const m of r.stdout.matchAll(/^(\S+) \| SUCCESS => (.*)$/gm)) {
    const msg = (JSON.parse(m[2]) as { msg: Record<string, unknown> }).msg;
    out[m[1]] = Object.fromEntries(Object.entries(msg).filter(([, v]) => v !== '__undefined__'));
  }
  return out;
}

/** `ansible -m debug -a var=NAME`: a variable's value as a whole (ansible-core 2.14 gives a template's result as text). */
export async function ansibleVar(l: Laid, name: string): Promise<Record<string, unknown> | undefined> {
  const r = await run('ansible', ['all', ...iArgs(l), ...l.vault, '-o', '-m', 'debug', '-a', `var=${name}`], l);
  if (r.exitCode !== 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const m of r.stdout.matchAll(/^(\S+) \| SUCCESS => (.*)$/gm)) {
    const v = (JSON.parse(m[2]) as Record<string, unknown>)[name];
    if (v !== 'VARIABLE IS NOT DEFINED!') out[m[1]] = v;
  }
  return out;
}

/** `ansible PATTERN --list-hosts`. */
export async function ansibleHosts(l: Laid, pattern: string): Promise<string[] | undefined> {
  const r = await run('ansible', [pattern, ...iArgs(l), '--list-hosts'], l);
  if (r.exitCode !== 0) return undefined;
  return r.stdout
    .split('\n')
    .slice(1)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'smd-ansible-tests-'));
}
