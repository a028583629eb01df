/**
 * The cluster settings the lab knows: OpenSearch's own registry (ClusterSettings.BUILT_IN_CLUSTER_SETTINGS) of the line
 * the cluster answers as, generated into cluster-settings.json by scripts/port-cluster-settings.mjs. A key it does
 * not register is refused as OpenSearch refuses it, so a mistyped key fails in the lab too.
 */
import registry from './cluster-settings.json' with { type: 'json' };

interface Known {
  key: string;
  match: string;
  suffix?: string;
  dynamic: boolean;
  final: boolean;
}

/** The lines whose registry is stored. */
type Line = keyof typeof registry.lines;

// search backpressure is registered since 2.4, so not in the 1.3 line (hand-kept: no 1.3 registry is stored)
const NOT_IN_1_3 = 'search_backpressure.';

function index(line: Line, drop: string | null) {
  const all = (registry.lines[line].settings as Known[]).filter((s) => drop === null || !s.key.startsWith(drop));
  return {
    exact: new Map(all.filter((s) => s.match === 'exact').map((s) => [s.key, s])),
    prefixes: all.filter((s) => s.match === 'prefix'),
    affixes: all.filter((s) => s.match === 'affix'),
  };
}

// 1.3's registry is not stored: it answers with 2.x's less what came later
const LINES = { '1.3': index('2.x', NOT_IN_1_3), '2.x': index('2.x', null), '3.x': index('3.x', null) };

const lineOf = (version: string): keyof typeof LINES =>
  version.startsWith('1.') ? '1.3' : version.startsWith('2.') ? '2.x' : '3.x';

// Setting.AffixKey: <prefix><namespace>.<suffix>, the namespace being [-\w]+
const isAffixOf = (s: Known, key: string): boolean =>
  key.startsWith(s.key) &&
  /^[-\w]+$/.test(key.slice(s.key.length, key.length - `.${s.suffix}`.length)) &&
  key.endsWith(`.${s.suffix}`);

/** The registered setting a key names, as AbstractScopedSettings.get finds it: the exact key, else a prefix or affix one. */
export function knownSetting(version: string, key: string): Known | undefined {
  const { exact, prefixes, affixes } = LINES[lineOf(version)];
  return (
    exact.get(key) ??
    prefixes.find((s) => key.startsWith(s.key) && key.length > s.key.length) ??
    affixes.find((s) => isAffixOf(s, key))
  );
}

// SearchBackpressureMode.fromName
const MODES = ['disabled', 'monitor_only', 'enforced'];

/**
 * The first key of a section OpenSearch would refuse, with its reason, as AbstractScopedSettings.updateSettings words
 * it; a reset of a wildcard key, or of an archived one, is always taken. `version`: the release the cluster answers as.
 */
export function unknownSetting(
  scope: 'persistent' | 'transient',
  flat: Record<string, unknown>,
  version: string,
): string | null {
  for (const [key, value] of Object.entries(flat)) {
    if (value === null && (key.endsWith('*') || key.startsWith('archived.'))) continue;
    const setting = knownSetting(version, key);
    if (setting === undefined) return `${scope} setting [${key}], not recognized`;
    if (setting.final) return `final ${scope} setting [${key}], not updateable`;
    if (!setting.dynamic) return `${scope} setting [${key}], not dynamically updateable`;
    if (key === 'search_backpressure.mode' && value !== null && !MODES.includes(String(value)))
      return `Invalid SearchBackpressureMode: ${String(value)}`;
  }
  return null;
}
