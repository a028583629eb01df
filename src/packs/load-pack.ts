/** A pack file's data checked against format 1 (PACKS.md) and turned into the loaded shape; every problem is kept. */
import { validRange } from 'semver';
import {
  SEVERITIES,
  type PackCheck,
  type PackMatcher,
  type PackRemedy,
  type PackScope,
  type PackSource,
  type PackSourceKind,
} from '../model/index.ts';
import { isSecretKey } from '../text/index.ts';
import { breakOrControlIn, charName } from '../base/yaml11.ts';
import { regexProblem } from './load-regex.ts';
import { Reader, type Obj } from './load-shape.ts';
import type { Path, Positioned } from './load-yaml.ts';

export const NAME_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;
const NAME_FORM = 'lower-case letters, digits and dashes (at most 63, not starting with a dash)';
const KEY_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const KEY_FORM = 'a setting key (letters, digits, _ . -)';
const REL_PATH_FORM = 'a relative path under search_home (or web:PATH under web_home) without .. (forward slashes)';
// an API path: no scheme, no host, no fragment, no whitespace; a query string is allowed
const API_PATH_RE = /^\/?[A-Za-z0-9_*,.-][A-Za-z0-9_*,.\-/]*(\?[A-Za-z0-9_.,=&*%-]*)?$/;
const JVM_RE = /^-(X[a-z]+|XX:[A-Za-z][A-Za-z0-9_]*|D[A-Za-z0-9_.-]+)$/;
const PLUGIN_RE = /^[a-z0-9][a-z0-9_.-]*$/;
const INDEX_RE = /^[a-z0-9.][a-z0-9_.-]*$/;
const LIMITS = ['max_locked_memory', 'max_open_files', 'max_processes', 'started_at'] as const;

/** Sources without an argument, written `read: plugins` or `{plugins: true, field: …}`. */
const BARE = ['plugins', 'keystore', 'memory', 'certificates', 'setting_keys', 'engine_version', 'disk', 'shard_usage'];
const WITH_ARG = [
  'setting',
  'dashboards_setting',
  'jvm_option',
  'file',
  'certificate',
  'sysctl',
  'engine_process',
  'api',
  'file_modified',
];
const SOURCES = [...WITH_ARG, ...BARE];
/** Sources that give an object (or a list of objects): `field:` picks one of its fields. */
const WITH_FIELDS = ['plugins', 'certificate', 'certificates', 'disk', 'api'];
/** Sources read once per cluster: the check is `each: cluster`. */
export const CLUSTER_SOURCES: readonly string[] = ['api', 'shard_usage'];

const TRUE_MATCHERS = [
  'same_on_nodes',
  'plugin_versions_match_engine',
  'seeds_are_cluster_managers',
  'below_high_watermark',
] as const;
const SCALAR_MATCHERS = ['equals', 'not_equals', 'contains', 'not_contains'] as const;
const LIST_MATCHERS = ['one_of', 'not_one_of', 'contains_none_of'] as const;
const NUMBER_MATCHERS = ['at_least', 'at_most'] as const;
const SOURCE_MATCHERS = ['same_as', 'not_newer_than'] as const;
export const MATCHERS: readonly string[] = [
  ...SCALAR_MATCHERS,
  ...LIST_MATCHERS,
  ...NUMBER_MATCHERS,
  ...SOURCE_MATCHERS,
  ...TRUE_MATCHERS,
  'present',
  'matches',
  'at_most_of_memory',
];
const REMEDIES = ['set_setting', 'set_dashboards_setting', 'remove_plugin', 'put_cluster_setting', 'put_index_setting'];

const UNIT: Record<string, number> = { b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40, d: 1 };

/** `31g` → bytes, `30d` → days, `262144` → itself; undefined when it is not such a number. */
export function unitNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  const m = typeof v === 'string' ? /^(\d+(?:\.\d+)?)\s*([kmgt]b?|b|d)?$/i.exec(v.trim()) : null;
  return m ? Number(m[1]) * UNIT[(m[2] ?? 'b')[0]!.toLowerCase()]! : undefined;
}

const relPath = (r: Reader, p: Path, v: unknown, what: string): string | undefined => {
  const s = r.str(p, v, what);
  if (s === undefined) return undefined;
  // `web:REL` is under web_home: the same rules apply after the prefix
  const rel = s.startsWith('web:') ? s.slice(4) : s;
  if (
    !rel ||
    rel.startsWith('/') ||
    rel.startsWith('~') ||
    rel.includes('\\') ||
    rel.split('/').some((x) => x === '..')
  )
    return r.bad(p, `${what} ${JSON.stringify(s)} is not ${REL_PATH_FORM}`);
  return s;
};

const regex = (r: Reader, p: Path, v: unknown, what: string): string | undefined => {
  const s = r.str(p, v, what);
  const why = s === undefined ? null : regexProblem(s);
  return why ? r.bad(p, `${what}: ${why}`) : s;
};

/** `read:` (or a `same_as:` operand): exactly one source, and `field` where the source gives objects. */
export function readSource(r: Reader, p: Path, v: unknown): PackSource | undefined {
  if (typeof v === 'string') {
    if (BARE.includes(v)) return { kind: v as PackSourceKind } as PackSource;
    return r.bad(p, `source '${v}' needs an argument or is unknown; sources: ${SOURCES.join(', ')}`);
  }
  const o = r.map(p, v, 'a source', [...SOURCES, 'field']);
  if (!o) return undefined;
  const kinds = Object.keys(o).filter((k) => SOURCES.includes(k));
  if (kinds.length !== 1)
    return r.bad(
      p,
      kinds.length ? `one source only, not ${kinds.join(' and ')}` : `no source; sources: ${SOURCES.join(', ')}`,
    );
  const k = kinds[0]!;
  const at = [...p, k];
  let field: string | undefined;
  if ('field' in o) {
    field = r.str([...p, 'field'], o.field, 'field', { re: /^[A-Za-z0-9_]+$/, form: 'a field name' });
    if (field !== undefined && !WITH_FIELDS.includes(k))
      return r.bad([...p, 'field'], `'${k}' gives no object to pick a field of`);
  }
  const src = oneSource(r, at, k, o[k]);
  return src && (field !== undefined ? { ...src, field } : src);
}

function oneSource(r: Reader, at: Path, k: string, v: unknown): PackSource | undefined {
  const key = (kind: 'setting' | 'dashboards_setting' | 'certificate', what: string) => {
    const s = r.str(at, v, what, { re: KEY_RE, form: KEY_FORM });
    return s === undefined ? undefined : kind === 'certificate' ? { kind, setting: s } : { kind, key: s };
  };
  switch (k) {
    case 'setting':
    case 'dashboards_setting':
    case 'certificate':
      return key(k, k);
    case 'jvm_option': {
      const s = r.str(at, v, k, { re: JVM_RE, form: 'a JVM option name (-Xmx, -XX:NAME, -DNAME)' });
      return s === undefined ? undefined : { kind: k, option: s };
    }
    case 'sysctl': {
      const s = r.str(at, v, k, { re: /^[a-z0-9_]+(\.[a-z0-9_-]+)*$/, form: 'a sysctl name (vm.max_map_count)' });
      return s === undefined ? undefined : { kind: k, name: s };
    }
    case 'engine_process': {
      const s = r.oneOf(at, v, k, LIMITS);
      return s === undefined ? undefined : { kind: k, limit: s };
    }
    case 'file_modified': {
      const s = relPath(r, at, v, k);
      return s === undefined ? undefined : { kind: k, path: s };
    }
    case 'file': {
      const o = r.map(at, v, 'file', ['path', 'match'], ['path', 'match']);
      if (!o) return undefined;
      const path = relPath(r, [...at, 'path'], o.path, 'file path');
      const match = regex(r, [...at, 'match'], o.match, 'file match');
      return path !== undefined && match !== undefined ? { kind: k, path, match } : undefined;
    }
    case 'api': {
      const o = r.map(at, v, 'api', ['path', 'pick'], ['path', 'pick']);
      if (!o) return undefined;
      const path = r.str([...at, 'path'], o.path, 'api path', {
        re: API_PATH_RE,
        form: 'a path of the REST API (_cluster/settings)',
      });
      if (path?.split(/[/?]/).includes('..'))
        return r.bad([...at, 'path'], `api path ${JSON.stringify(path)} holds ..`);
      const pick = r.str([...at, 'pick'], o.pick, 'api pick', {
        re: /^[^.\s]+(\.[^.\s]+)*$/,
        form: 'a dotted path (a.b.0.c, * over a list)',
      });
      return path !== undefined && pick !== undefined ? { kind: k, path, pick } : undefined;
    }
    default:
      // a bare source in a mapping: `{plugins: true}` (or empty)
      return v === true || v === null
        ? ({ kind: k } as PackSource)
        : r.bad(at, `'${k}' takes no argument (write true)`);
  }
}

/** `expect:`: a mapping of matchers, every one must hold. */
export function readMatchers(r: Reader, p: Path, v: unknown): PackMatcher[] | undefined {
  const o = r.map(p, v, 'expect', MATCHERS);
  if (!o) return undefined;
  if (!Object.keys(o).length) return r.bad(p, 'expect has no matcher');
  const out = Object.entries(o)
    .filter(([k]) => MATCHERS.includes(k))
    .map(([k, x]) => matcher(r, [...p, k], k, x));
  return out.every((m) => m !== undefined) ? (out as PackMatcher[]) : undefined;
}

function matcher(r: Reader, at: Path, k: string, v: unknown): PackMatcher | undefined {
  if ((SCALAR_MATCHERS as readonly string[]).includes(k)) {
    const value = r.scalar(at, v, k);
    return value === undefined ? undefined : { kind: k as (typeof SCALAR_MATCHERS)[number], value };
  }
  if ((LIST_MATCHERS as readonly string[]).includes(k)) {
    const values = r.list(at, v, k, (ip, x) => r.scalar(ip, x, `an item of ${k}`));
    return values && { kind: k as (typeof LIST_MATCHERS)[number], values };
  }
  if ((NUMBER_MATCHERS as readonly string[]).includes(k)) {
    const n = unitNumber(v);
    if (n === undefined)
      return r.bad(at, `${k} must be a number, with a unit or not (31g, 512m, 30d, 262144), not ${JSON.stringify(v)}`);
    return { kind: k as (typeof NUMBER_MATCHERS)[number], value: n };
  }
  if ((SOURCE_MATCHERS as readonly string[]).includes(k)) {
    const source = readSource(r, at, v);
    return source && { kind: k as (typeof SOURCE_MATCHERS)[number], source };
  }
  if ((TRUE_MATCHERS as readonly string[]).includes(k))
    return r.isTrue(at, v, k) && { kind: k as (typeof TRUE_MATCHERS)[number] };
  if (k === 'present')
    return typeof v === 'boolean' ? { kind: k, value: v } : r.bad(at, 'present must be true or false');
  if (k === 'matches') {
    const s = regex(r, at, v, 'matches');
    return s === undefined ? undefined : { kind: k, regex: s };
  }
  // at_most_of_memory
  if (typeof v !== 'number' || !(v > 0 && v <= 1))
    return r.bad(at, `${k} must be a fraction above 0 and at most 1, not ${JSON.stringify(v)}`);
  return { kind: 'at_most_of_memory', fraction: v };
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
  const id = 'id' in o ? r.str(f('id'), o.id, 'id', { re: NAME_RE, form: NAME_FORM }) : undefined;
  const title = 'title' in o ? r.str(f('title'), o.title, 'title') : undefined;
  const severity = 'severity' in o ? r.oneOf(f('severity'), o.severity, 'severity', SEVERITIES) : undefined;
  const why = 'why' in o ? r.str(f('why'), o.why, 'why', { lines: true }) : undefined;
  const docs =
    'docs' in o ? r.str(f('docs'), o.docs, 'docs', { re: /^https?:\/\/[^\s]+$/, form: 'an http(s) URL' }) : undefined;
  const read = 'read' in o ? readSource(r, f('read'), o.read) : undefined;
  const expect = 'expect' in o ? readMatchers(r, f('expect'), o.expect) : undefined;
  const sc = 'scope' in o ? scope(r, f('scope'), o.scope) : undefined;
  const cluster = read !== undefined && CLUSTER_SOURCES.includes(read.kind);
  const each =
    'each' in o ? r.oneOf(f('each'), o.each, 'each', ['node', 'cluster'] as const) : cluster ? 'cluster' : 'node';
  if (read && each && cluster !== (each === 'cluster'))
    r.bad(
      f('each'),
      cluster
        ? `'${read.kind}' is read once per cluster: each must be cluster`
        : `each: cluster needs a cluster source (${CLUSTER_SOURCES.join(', ')}), not '${read.kind}'`,
    );
  else if (each === 'cluster' && expect?.some((m) => m.kind === 'same_on_nodes' || m.kind === 'at_most_of_memory'))
    r.bad(f('expect'), 'same_on_nodes and at_most_of_memory compare nodes: not with each: cluster');
  if (read && read.kind !== 'plugins' && expect?.some((m) => m.kind === 'plugin_versions_match_engine'))
    r.bad(f('expect'), 'plugin_versions_match_engine judges read: plugins only');
  let when: PackCheck['when'];
  if ('when' in o) {
    const w = r.map(f('when'), o.when, 'when', ['read', 'expect'], ['read', 'expect']);
    const wr = w && readSource(r, [...f('when'), 'read'], w.read);
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
  const name = 'name' in o ? r.str(['name'], o.name, 'name', { re: NAME_RE, form: NAME_FORM }) : undefined;
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
