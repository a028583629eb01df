/** Ansible's script inventory: an executable answering --list (and --host NAME), or JSON saved in that shape. */
import { execFileSync } from 'node:child_process';
import { InputError } from '../base/errors.ts';
import { maxScriptOutputBytes, mib } from '../base/limits.ts';
import { InventoryBuilder } from './builder.ts';
import { parsePyJson } from './pyfloat.ts';
import { checkAddress } from './validate.ts';
import { fromAnsibleJson } from './vault.ts';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** True for parsed JSON in the script shape: `_meta`, or a group given as a list or with list hosts/children. */
export function isScriptShape(data: unknown): boolean {
  if (!isObj(data)) return false;
  if ('_meta' in data) return true;
  return Object.values(data).some(
    (g) => Array.isArray(g) || (isObj(g) && (Array.isArray(g.hosts) || Array.isArray(g.children))),
  );
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): string {
  try {
    return execFileSync(file, args, {
      encoding: 'utf8',
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: maxScriptOutputBytes(env),
      timeout: 300_000,
    });
  } catch (e) {
    const err = e as { status?: number; stderr?: string; code?: string };
    const why =
      err.code === 'ENOBUFS'
        ? `its output passes ${mib(maxScriptOutputBytes(env))} (SMDOCTOR_MAX_FILE_MIB × 16): stopped`
        : err.status !== undefined
          ? `exit ${err.status}`
          : (err.code ?? 'failed');
    const tail = (err.stderr ?? '').trim().split('\n').slice(-3).join(' | ');
    throw new InputError(`inventory script ${args.join(' ')}: ${why}${tail ? `: ${tail}` : ''}`, {
      pos: { file },
      cause: e,
    });
  }
}

function json(text: string, file: string, what: string): unknown {
  try {
    return parsePyJson(text);
  } catch (e) {
    throw new InputError(`${what} is not JSON: ${(e as Error).message}`, { pos: { file } });
  }
}

/** Fills a builder from script-shaped data; `hostVars` answers for hosts `_meta` does not cover. */
export function readScriptData(b: InventoryBuilder, data: unknown, hostVars?: (host: string) => Json): void {
  if (!isObj(data)) {
    b.error('inventory JSON must be an object of groups');
    return;
  }
  const meta = isObj(data._meta) ? data._meta : undefined;
  const metaVars = meta && isObj(meta.hostvars) ? meta.hostvars : undefined;
  const seen = new Set<string>();
  for (const [name, raw] of Object.entries(data)) {
    if (name === '_meta') continue;
    const g = Array.isArray(raw) ? { hosts: raw } : isObj(raw) ? raw : null;
    if (!g) {
      b.error(`group '${name}' must be an object with hosts, vars and children, or a list of hosts`);
      continue;
    }
    b.addGroup(name);
    const hosts = g.hosts ?? [];
    if (!Array.isArray(hosts)) b.error(`hosts of group '${name}' must be a list`);
    else
      for (const h of hosts) {
        if (typeof h !== 'string' && typeof h !== 'number') {
          b.error(`group '${name}' lists a host that is not a name: ${JSON.stringify(h)}`);
          continue;
        }
        const host = String(h);
        const vars = metaVars ? (isObj(metaVars[host]) ? metaVars[host] : {}) : hostVars ? hostVars(host) : {};
        if (!checkAddress(b, host, vars)) continue;
        b.addHost(host, name);
        if (seen.has(host)) continue;
        seen.add(host);
        for (const [k, v] of Object.entries(vars)) b.setHostVar(host, k, v);
      }
    if (g.vars !== undefined && !isObj(g.vars)) b.error(`vars of group '${name}' must be an object`);
    else for (const [k, v] of Object.entries(g.vars ?? {})) b.setGroupVar(name, k, v);
    const children = g.children ?? [];
    if (!Array.isArray(children)) b.error(`children of group '${name}' must be a list`);
    else
      for (const c of children) {
        const cycle = b.addChild(name, String(c));
        if (cycle) b.error(`children form a cycle: ${cycle.join(' -> ')}`);
      }
  }
}

/** Runs an inventory script as Ansible does: --list, then --host NAME for each host when it gives no _meta. */
export function readScript(file: string, env: NodeJS.ProcessEnv): InventoryBuilder {
  const b = new InventoryBuilder(file);
  // Ansible decodes a script's JSON with its own decoder: {"__ansible_vault": ...} is a vault value
  const data = fromAnsibleJson(json(run(file, ['--list'], env), file, 'the output of --list'), file);
  readScriptData(b, data, (host) => {
    const v = fromAnsibleJson(json(run(file, ['--host', host], env), file, `the output of --host ${host}`), file);
    return isObj(v) ? v : {};
  });
  return b;
}
