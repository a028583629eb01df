/** Scenario YAML: where the shipped ones live, and how a text is parsed and validated with positions. */
import { fileURLToPath } from 'node:url';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { InputError, withAliasLimit, type SourcePos } from 'smdoctor';
import type { Scenario } from './model.ts';

/** The shipped scenarios (the lab package's `scenarios/`). */
export const SCENARIO_DIR = fileURLToPath(new URL('../scenarios/', import.meta.url));

interface Problem {
  path: (string | number)[];
  message: string;
}

/** Parses and validates scenario YAML; every problem is reported with file:line:col. */
export function parseScenario(text: string, file: string): Scenario {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  const posAt = (offset: number): SourcePos => ({ file, ...lc.linePos(offset) });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    throw new InputError(
      `invalid scenario YAML: ${e.message.split('\n')[0]}${doc.errors.length > 1 ? ` (and ${doc.errors.length - 1} more)` : ''}`,
      { pos: posAt(e.pos[0]) },
    );
  }
  const value = withAliasLimit(file, (o) => doc.toJS(o)) as unknown;
  const problems = validate(value);
  if (problems.length) {
    const p = problems[0]!;
    const more =
      problems.length > 1
        ? ` (and ${problems.length - 1} more: ${problems
            .slice(1)
            .map((q) => q.message)
            .join('; ')})`
        : '';
    throw new InputError(`invalid scenario: ${p.message}${more}`, { pos: posAt(offsetOf(doc, p.path)) });
  }
  return value as Scenario;
}

function offsetOf(doc: Document, path: (string | number)[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return node.range[0];
  }
  return 0;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function validate(v: unknown): Problem[] {
  const out: Problem[] = [];
  const bad = (path: (string | number)[], message: string) => out.push({ path, message });
  if (!isObj(v)) return [{ path: [], message: 'a scenario is a mapping with name, nodes and indices' }];
  if (typeof v.name !== 'string') bad(['name'], 'name must be a string');
  if (v.version !== undefined && (typeof v.version !== 'string' || !/^(1\.3|2\.\d+|3\.\d+)\.\d+$/.test(v.version)))
    bad(['version'], 'version must be an OpenSearch release of the 1.3, 2.x or 3.x line, such as "2.11.1"');
  if (v.api_access !== undefined && v.api_access !== 'read' && v.api_access !== 'all')
    bad(['api_access'], 'api_access must be "read" (the API user can read but not write) or "all"');
  if (v.layout !== undefined && v.layout !== 'archive' && v.layout !== 'packages')
    bad(['layout'], "layout must be 'archive' or 'packages'");
  for (const k of ['description', 'cluster_name', 'engine'] as const) {
    if (v[k] !== undefined && typeof v[k] !== 'string') bad([k], `${k} must be a string`);
  }
  if (
    v.cluster_settings !== undefined &&
    !(isObj(v.cluster_settings) && Object.values(v.cluster_settings).every((x) => typeof x === 'string'))
  )
    bad(['cluster_settings'], 'cluster_settings must map flat setting names to string values');
  if (v.clusters !== undefined) {
    if (!Array.isArray(v.clusters)) bad(['clusters'], 'clusters must be a list of scenarios');
    else v.clusters.forEach((c, i) => validate(c).forEach((p) => bad(['clusters', i, ...p.path], p.message)));
    return out;
  }
  const names = new Set<string>();
  const seen = (path: (string | number)[], name: unknown) => {
    if (typeof name !== 'string' || !NAME.test(name)) return bad(path, `host name must match ${NAME}`);
    if (names.has(name)) bad(path, `host name '${name}' is used twice`);
    names.add(name);
  };
  if (!Array.isArray(v.nodes) || v.nodes.length === 0) bad(['nodes'], 'nodes must be a non-empty list');
  else
    v.nodes.forEach((n, i) => {
      if (!isObj(n)) return bad(['nodes', i], 'a node is a mapping with name and roles');
      seen(['nodes', i, 'name'], n.name);
      if (!isStrList(n.roles)) bad(['nodes', i, 'roles'], 'roles must be a list of role names');
      if (
        n.attrs !== undefined &&
        (!isObj(n.attrs) || Object.values(n.attrs).some((x) => !['string', 'boolean', 'number'].includes(typeof x)))
      ) {
        bad(['nodes', i, 'attrs'], 'attrs must map names to scalars');
      }
      for (const k of ['plugins', 'keystore'] as const)
        if (n[k] !== undefined && !isStrList(n[k])) bad(['nodes', i, k], `${k} must be a list of names`);
      if (n.yml_style !== undefined && n.yml_style !== 'flat' && n.yml_style !== 'nested')
        bad(['nodes', i, 'yml_style'], "yml_style must be 'flat' or 'nested'");
      if (n.yml_extra !== undefined && typeof n.yml_extra !== 'string')
        bad(['nodes', i, 'yml_extra'], 'yml_extra must be a string');
      if (n.jvm_options !== undefined && typeof n.jvm_options !== 'string')
        bad(['nodes', i, 'jvm_options'], 'jvm_options must be a string (the text of config/jvm.options)');
      if (
        n.jvm_options_d !== undefined &&
        !(
          isObj(n.jvm_options_d) &&
          Object.entries(n.jvm_options_d).every(([k, x]) => NAME.test(k) && typeof x === 'string')
        )
      )
        bad(['nodes', i, 'jvm_options_d'], 'jvm_options_d must map file names to their text');
      if (n.proc !== undefined && !isObj(n.proc))
        bad(['nodes', i, 'proc'], 'proc must be a mapping of mem_total_kb, sysctls and limits');
      nodeFacts(n).forEach(([k, message]) => bad(['nodes', i, k], message));
      if (
        n.dashboards_hosts !== undefined &&
        typeof n.dashboards_hosts !== 'string' &&
        !isStrList(n.dashboards_hosts)
      ) {
        bad(['nodes', i, 'dashboards_hosts'], 'dashboards_hosts must be a string or a list');
      }
      if (n.env !== undefined && (!isObj(n.env) || Object.values(n.env).some((x) => typeof x !== 'string')))
        bad(['nodes', i, 'env'], 'env must map variable names to strings');
      if (n.told_by !== undefined && n.told_by !== 'process' && n.told_by !== 'inventory')
        bad(['nodes', i, 'told_by'], "told_by must be 'process' or 'inventory'");
    });
  if (v.dashboards !== undefined) {
    if (!Array.isArray(v.dashboards)) bad(['dashboards'], 'dashboards must be a list');
    else
      v.dashboards.forEach((d, i) => {
        if (!isObj(d)) return bad(['dashboards', i], 'a web host is a mapping with name and hosts');
        seen(['dashboards', i, 'name'], d.name);
        if (typeof d.hosts !== 'string' && !isStrList(d.hosts))
          bad(['dashboards', i, 'hosts'], 'hosts must be a string or a list');
      });
  }
  if (!Array.isArray(v.indices)) bad(['indices'], 'indices must be a list');
  else {
    const indexNames = new Set(v.indices.map((x) => (isObj(x) ? x.name : undefined)));
    v.indices.forEach((x, i) => {
      if (!isObj(x) || typeof x.name !== 'string') return bad(['indices', i], 'an index is a mapping with a name');
      for (const k of ['settings', 'mappings', 'docs'] as const)
        if (x[k] !== undefined && !isObj(x[k])) bad(['indices', i, k], `${k} must be a mapping`);
      if (x.aliases !== undefined && !isStrList(x.aliases))
        bad(['indices', i, 'aliases'], 'aliases must be a list of names');
      // the engine refuses an alias named like an index
      else if (isStrList(x.aliases) && x.aliases.some((a) => indexNames.has(a)))
        bad(['indices', i, 'aliases'], 'an alias cannot have the name of an index');
    });
  }
  return out;
}

const SIZE = /^\d+[kmgt]?b?$/i;
const VERSION = /^\d+\.\d+\.\d+$/;

/** The fleet pack's node fields (model.ts): [key, problem] for each one of the wrong shape. */
function nodeFacts(n: Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const check = (k: string, ok: (v: unknown) => boolean, message: string) => {
    if (n[k] !== undefined && !ok(n[k])) out.push([k, message]);
  };
  const int = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
  check('version', (v) => typeof v === 'string' && VERSION.test(v), 'version must be a release such as "2.11.1"');
  check(
    'certificate_days',
    (v) => int(v) && (v as number) > 0,
    'certificate_days must be a whole number of days above 0',
  );
  for (const k of ['demo_certificates', 'legacy_roles'])
    check(k, (v) => typeof v === 'boolean', `${k} must be true or false`);
  check('disk_total', (v) => typeof v === 'string' && SIZE.test(v), 'disk_total must be a size such as "100g"');
  check('seed_hosts', isStrList, 'seed_hosts must be a list of addresses');
  check('disk_used_percent', (v) => typeof v === 'number' && v >= 0 && v <= 100, 'disk_used_percent must be 0 to 100');
  check(
    'after_start',
    (v) =>
      isObj(v) &&
      Object.keys(v).every((k) => k === 'keystore_changed' || k === 'plugin_engine_version') &&
      (v.keystore_changed === undefined || typeof v.keystore_changed === 'boolean') &&
      (v.plugin_engine_version === undefined ||
        (typeof v.plugin_engine_version === 'string' && VERSION.test(v.plugin_engine_version))),
    'after_start takes keystore_changed (true or false) and plugin_engine_version (a release such as "2.12.0")',
  );
  return out;
}

/** The clusters of a scenario: itself, or each of its `clusters`. */
export function clustersOf(scenario: Scenario): Scenario[] {
  return scenario.clusters?.length ? scenario.clusters : [scenario];
}
