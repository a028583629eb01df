/** Flat dotted settings ⇄ nested objects; every leaf a string as the engine shows it. */

export type Flat = Record<string, string>;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Flattens nested or dotted input into dotted keys; null values are kept (they reset a setting). */
export function flatten(
  input: Record<string, unknown>,
  prefix = '',
  out: Record<string, string | null> = {},
): Record<string, string | null> {
  for (const [k, v] of Object.entries(input)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isObject(v)) flatten(v, key, out);
    else if (v === null) out[key] = null;
    else out[key] = Array.isArray(v) ? v.map(String).join(',') : String(v);
  }
  return out;
}

/**
 * Accepts every PUT _settings form: flat, nested, unprefixed or wrapped in
 * {"settings":…}; answers `index.`-prefixed dotted keys.
 */
export function normalizeIndexSettings(body: unknown): Record<string, string | null> {
  if (!isObject(body)) return {};
  const inner = isObject(body.settings) && Object.keys(body).length === 1 ? body.settings : body;
  const flat = flatten(inner);
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(flat)) out[k.startsWith('index.') ? k : `index.${k}`] = v;
  return out;
}

export function nest(flat: Flat): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(flat).sort()) {
    const parts = key.split('.');
    let node = out;
    for (const p of parts.slice(0, -1)) {
      if (!isObject(node[p])) node[p] = {};
      node = node[p] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = flat[key];
  }
  return out;
}

/** Sorted-key copy, so that flat_settings output is stable. */
export function sortedFlat(flat: Flat): Flat {
  return Object.fromEntries(
    Object.keys(flat)
      .sort()
      .map((k) => [k, flat[k]]),
  );
}
