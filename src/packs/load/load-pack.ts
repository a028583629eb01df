/** A pack file's data checked against format 1 (PACKS.md) and turned into the loaded shape; every problem is kept. */
import { validRange } from 'semver';
import {
  PACK_NAME_RE,
  SEVERITIES,
  type PackCheck,
  type PackMatcher,
  type PackRemedy,
  type PackScope,
  type PackMatcherKind,
} from '../../model/index.ts';
import { isSecretKey } from '../../text/index.ts';
import { breakOrControlIn, charName } from '../../base/yaml11.ts';
import { MATCHER_KINDS, matcherKind } from '../matchers/registry.ts';
import { KEY_FORM, KEY_RE, NAME_FORM } from './forms.ts';
import { Reader, type Obj } from './load-shape.ts';
import type { Path, Positioned } from './load-yaml.ts';
import { perCluster } from '../sources/registry.ts';
import { CLUSTER_SOURCES, readSourceAt } from './source.ts';

const PLUGIN_RE = /^[a-z0-9][a-z0-9_.-]*$/;
const INDEX_RE = /^[a-z0-9.][a-z0-9_.-]*$/;
const REMEDIES = ['set_setting', 'set_dashboards_setting', 'remove_plugin', 'put_cluster_setting', 'put_index_setting'];
export const MATCHERS: readonly string[] = MATCHER_KINDS;

/** `expect:`: a mapping of matchers, every one must hold. */
export function readMatchers(r: Reader, p: Path, v: unknown): PackMatcher[] | undefined {
  const o = r.map(p, v, 'expect', MATCHERS);
  if (!o) return undefined;
  if (!Object.keys(o).length) return r.bad(p, 'expect has no matcher');
  const out = Object.entries(o)
    .filter((e): e is [PackMatcherKind, unknown] => MATCHERS.includes(e[0]))
    .map(([k, x]) => matcherKind(k).load(r, [...p, k], x));
  return out.every((m) => m !== undefined) ? out : undefined;
}

function remedy(r: Reader, p: Path, v: unknown): PackRemedy | undefined {
  const o = r.map(p, v, 'remedy', REMEDIES);
  if (!o) return undefined;
  const kinds = Object.keys(o).filter((k) => REMEDIES.includes(k));
  if (kinds.length !== 1)
    return r.bad(p, kinds.length ? `one remedy only, not ${kinds.join(' and ')}` : 'remedy names no remedy');
  const k = kinds[0]!;
  const at = [...p, k];
  if (k === 'remove_plugin') {
    const name = r.str(at, o[k], k, { re: PLUGIN_RE, form: 'a plugin name' });
    return name === undefined ? undefined : { kind: k, name };
  }
  const withIndex = k === 'put_index_setting';
  const keys = withIndex ? ['index', 'key', 'value'] : ['key', 'value'];
  const m = r.map(at, o[k], k, keys, keys);
  if (!m) return undefined;
  const key = r.str([...at, 'key'], m.key, `${k} key`, { re: KEY_RE, form: KEY_FORM });
  // the plan shows the value in its diff: a secret has no place in a pack
  if (key !== undefined && isSecretKey(key))
    return r.bad([...at, 'key'], `${k} of the secret-named key '${key}' is refused: a plan would show its value`);
  const value = r.scalar([...at, 'value'], m.value, `${k} value`);
  if (key === undefined || value === undefined || !('value' in m)) return undefined;
  // the engine's YAML 1.1 ends a line at NEL, U+2028 and U+2029: such a value would write a setting of its own
  const unsafe = typeof value === 'string' ? breakOrControlIn(value) : undefined;
  if (unsafe)
    return r.bad(
      [...at, 'value'],
      `${k} value holds ${charName(unsafe.char)} at character ${unsafe.index + 1}: a config value holds no line break or control character`,
    );
  if (k === 'put_cluster_setting') return { kind: k, key, value };
  if (value === null) return r.bad([...at, 'value'], `${k} needs a value (null removes nothing from a file)`);
  if (k !== 'put_index_setting') return { kind: k as 'set_setting' | 'set_dashboards_setting', key, value };
  const index = r.str([...at, 'index'], m.index, 'index', {
    re: INDEX_RE,
    form: 'one index name (no wildcard, not _all)',
  });
  return index === undefined ? undefined : { kind: k, index, key, value };
}

function scope(r: Reader, p: Path, v: unknown): PackScope | undefined {
  const o = r.map(p, v, 'scope', ['roles', 'groups', 'engine']);
  if (!o) return undefined;
  const out: PackScope = {};
  const names = (k: 'roles' | 'groups') =>
    r.list([...p, k], o[k], k, (ip, x) => r.str(ip, x, `an item of ${k}`, { re: /^[A-Za-z0-9_.-]+$/, form: 'a name' }));
  if ('roles' in o) out.roles = names('roles');
  if ('groups' in o) out.groups = names('groups');
  if ('engine' in o) {
    const e = r.str([...p, 'engine'], o.engine, 'engine range');
    if (e !== undefined && validRange(e) === null)
      r.bad([...p, 'engine'], `engine ${JSON.stringify(e)} is not a semver range (>=2.0.0 <3.0.0)`);
    else out.engine = e;
  }
  return out;
}

const CHECK_KEYS = ['id', 'title', 'severity', 'why', 'docs', 'scope', 'each', 'read', 'expect', 'when', 'remedy'];

/** One check; `pack` names it `pack/id`. */
export function readCheck(r: Reader, p: Path, v: unknown, pack: string): PackCheck | undefined {
  const o = r.map(p, v, 'a check', CHECK_KEYS, ['id', 'title', 'severity', 'why', 'read', 'expect']);
  if (!o) return undefined;
  const f = (k: string): Path => [...p, k];
  const id = 'id' in o ? r.str(f('id'), o.id, 'id', { re: PACK_NAME_RE, form: NAME_FORM }) : undefined;
  const title = 'title' in o ? r.str(f('title'), o.title, 'title') : undefined;
  const severity = 'severity' in o ? r.oneOf(f('severity'), o.severity, 'severity', SEVERITIES) : undefined;
  const why = 'why' in o ? r.str(f('why'), o.why, 'why', { lines: true }) : undefined;
  const docs =
    'docs' in o ? r.str(f('docs'), o.docs, 'docs', { re: /^https?:\/\/[^\s]+$/, form: 'an http(s) URL' }) : undefined;
  const read = 'read' in o ? readSourceAt(r, f('read'), o.read) : undefined;
  const expect = 'expect' in o ? readMatchers(r, f('expect'), o.expect) : undefined;
  const sc = 'scope' in o ? scope(r, f('scope'), o.scope) : undefined;
  const cluster = read !== undefined && perCluster(read);
  const each =
    'each' in o ? r.oneOf(f('each'), o.each, 'each', ['node', 'cluster'] as const) : cluster ? 'cluster' : 'node';
  if (read && each && cluster !== (each === 'cluster'))
    r.bad(
      f('each'),
      cluster
        ? `'${read.kind}' is read once per cluster: each must be cluster`
        : read.kind === 'api'
          ? `'api' with each_node: true is read per node: each must be node`
          : `each: cluster needs a cluster source (${CLUSTER_SOURCES.join(', ')}), not '${read.kind}'`,
    );
  else if (each === 'cluster' && expect?.some((m) => m.kind === 'same_on_nodes' || m.kind === 'at_most_of_memory'))
    r.bad(f('expect'), 'same_on_nodes and at_most_of_memory compare nodes: not with each: cluster');
  if (read && read.kind !== 'plugins' && expect?.some((m) => m.kind === 'plugin_versions_match_engine'))
    r.bad(f('expect'), 'plugin_versions_match_engine judges read: plugins only');
  let when: PackCheck['when'];
  if ('when' in o) {
    const w = r.map(f('when'), o.when, 'when', ['read', 'expect'], ['read', 'expect']);
    const wr = w && readSourceAt(r, [...f('when'), 'read'], w.read);
    const we = w && readMatchers(r, [...f('when'), 'expect'], w.expect);
    if (wr && we) when = { read: wr, expect: we };
  }
  const rem = 'remedy' in o && o.remedy !== null ? remedy(r, f('remedy'), o.remedy) : undefined;
  if (
    id === undefined ||
    title === undefined ||
    severity === undefined ||
    why === undefined ||
    !read ||
    !expect ||
    !each
  )
    return undefined;
  return {
    fullId: `${pack}/${id}`,
    id,
    title,
    severity,
    why,
    ...(docs !== undefined ? { docs } : {}),
    ...(sc ? { scope: sc } : {}),
    each,
    read,
    expect,
    ...(when ? { when } : {}),
    ...(rem ? { remedy: rem } : {}),
  };
}

/** Checks in one pack at most: far above any real rule set, and what keeps judging and validating a pack cheap. */
export const MAX_PACK_CHECKS = 500;

/** The whole file; undefined when any problem was found (the problems are on `doc`). */
export function readPack(
  doc: Positioned,
  origin: string,
): { name?: string; description?: string; checks: PackCheck[] } | undefined {
  const r = new Reader(doc);
  const o: Obj | undefined = r.map(
    [],
    doc.value,
    'a pack',
    ['smdoctor_pack', 'name', 'description', 'checks'],
    ['smdoctor_pack', 'name', 'checks'],
  );
  if (!o) return undefined;
  if ('smdoctor_pack' in o && o.smdoctor_pack !== 1)
    r.bad(
      ['smdoctor_pack'],
      `smdoctor_pack ${JSON.stringify(o.smdoctor_pack)} is not a format this smdoctor reads (1)`,
    );
  const name = 'name' in o ? r.str(['name'], o.name, 'name', { re: PACK_NAME_RE, form: NAME_FORM }) : undefined;
  const description =
    'description' in o ? r.str(['description'], o.description, 'description', { lines: true }) : undefined;
  const many = Array.isArray(o.checks) && o.checks.length > MAX_PACK_CHECKS;
  // refused before any check is read: validating a huge list costs what its size does
  if (many)
    r.bad(
      ['checks'],
      `${(o.checks as unknown[]).length} checks, past the limit of ${MAX_PACK_CHECKS} in one pack: split it into several`,
    );
  const checks =
    'checks' in o && !many
      ? r.list(['checks'], o.checks, 'checks', (p, x) => readCheck(r, p, x, name ?? origin) ?? null)
      : undefined;
  const seen = new Map<unknown, number>();
  if (Array.isArray(o.checks) && !many)
    (o.checks as unknown[]).forEach((c, i) => {
      const id = (c as Obj | null)?.id;
      if (typeof id !== 'string') return;
      const first = seen.get(id);
      if (first === undefined) seen.set(id, i);
      else r.bad(['checks', i, 'id'], `duplicate id '${id}' (also check ${first + 1} of this pack)`);
    });
  if (doc.problems.length || !checks) return undefined;
  return {
    ...(name ? { name } : {}),
    ...(description ? { description } : {}),
    checks: checks.filter((c): c is PackCheck => c !== null),
  };
}
