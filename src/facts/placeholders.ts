/**
 * `${…}` placeholders in engine settings, resolved as the engine resolves them when it starts.
 *
 * Followed: opensearch-project/OpenSearch, `server/src/main/java/org/opensearch/common/settings/PropertyPlaceholder.java`
 * @ 47bb3e737589bac96f5ae787fcd0e474ba035fdb and `Settings.Builder.replacePropertyPlaceholders` in `Settings.java`
 * @ 0075e286786a5983893864a854d667aed0bc3cdc (called by `InternalSettingsPreparer` on the file's settings):
 * - `${NAME}` is the environment variable NAME, else the setting NAME of the same file (flat key), else the engine
 *   refuses to start (`Could not resolve placeholder 'NAME'`);
 * - `${NAME:default}`: the text after the first `:` when neither has a value;
 * - placeholders inside a name (`${A_${B}}`) and inside a resolved value are resolved too; a circular one refuses;
 * - a missing `${prompt.…}` leaves the whole value as written;
 * - only values, never keys; each element of a list is resolved; a scalar resolved to `''` is no setting at all.
 * Where the engine's environment could not be read, any placeholder is unknown: the file alone does not say.
 */

/** The running engine's environment (`/proc/<pid>/environ`), or null when it could not be read. */
export type EngineEnv = Readonly<Record<string, string>> | null;

/** A setting as the engine would load it: its value (undefined: no such setting), unknown, or refused at start. */
export type Resolved<T> =
  { state: 'value'; value: T } | { state: 'unknown'; names: string[] } | { state: 'refused'; message: string };

// why a placeholder cannot be resolved here: the engine refuses it, or the environment was not read
class Refused extends Error {}
class Unknown extends Error {
  constructor(readonly names: string[]) {
    super(names.join(', '));
  }
}

const PREFIX = '${';
const SUFFIX = '}';

function endIndex(buf: string, start: number): number {
  let nested = 0;
  for (let i = start + PREFIX.length; i < buf.length;) {
    if (buf.startsWith(SUFFIX, i)) {
      if (nested === 0) return i;
      nested--;
      i += SUFFIX.length;
    } else if (buf.startsWith(PREFIX, i)) {
      nested++;
      i += PREFIX.length;
    } else i++;
  }
  return -1;
}

type Lookup = (name: string) => string | undefined;

// PropertyPlaceholder.parseStringValue, its quirks kept (the visited set keeps `A:x`, it removes only `A`)
function parse(str: string, lookup: Lookup, visited: Set<string>): string {
  let buf = str;
  let start = buf.indexOf(PREFIX);
  while (start !== -1) {
    const end = endIndex(buf, start);
    if (end === -1) break;
    const raw = buf.slice(start + PREFIX.length, end);
    if (visited.has(raw)) throw new Refused(`Circular placeholder reference '${raw}' in property definitions`);
    visited.add(raw);
    let name = parse(raw, lookup, visited);
    const colon = name.indexOf(':');
    const fallback = colon === -1 ? undefined : name.slice(colon + 1);
    if (colon !== -1) name = name.slice(0, colon);
    let value = lookup(name) ?? fallback;
    if (value === undefined && name.startsWith('prompt.')) return str;
    if (value === undefined) throw new Refused(`Could not resolve placeholder '${name}'`);
    value = parse(value, lookup, visited);
    buf = buf.slice(0, start) + value + buf.slice(end + SUFFIX.length);
    start = buf.indexOf(PREFIX, start + value.length);
    visited.delete(name);
  }
  return buf;
}

/**
 * One setting's text with its placeholders resolved from the running engine's environment (`env`; null: not read,
 * so any placeholder is unknown), then from the file's other settings (`setting`, by flat key).
 */
export function resolvePlaceholders(text: string, env: EngineEnv, setting: Lookup = () => undefined): Resolved<string> {
  if (!text.includes(PREFIX)) return { state: 'value', value: text };
  const lookup: Lookup = (name) => {
    if (env === null) throw new Unknown([name]);
    return Object.hasOwn(env, name) ? env[name] : setting(name);
  };
  try {
    return { state: 'value', value: parse(text, lookup, new Set()) };
  } catch (err) {
    if (err instanceof Unknown) return { state: 'unknown', names: namesIn(text) };
    if (err instanceof Refused) return { state: 'refused', message: err.message };
    throw err;
  }
}

/** The variable names a text's placeholders name at their outer level (for a report: "unknown: NODE_ROLE"). */
function namesIn(text: string): string[] {
  const out: string[] = [];
  for (let s = text.indexOf(PREFIX); s !== -1;) {
    const e = endIndex(text, s);
    if (e === -1) break;
    const inner = text.slice(s + PREFIX.length, e);
    out.push(inner.includes(':') && !inner.includes(PREFIX) ? inner.slice(0, inner.indexOf(':')) : inner);
    s = text.indexOf(PREFIX, e + SUFFIX.length);
  }
  return [...new Set(out)];
}

/**
 * A value read from an engine config as the engine loads it: a list element by element, a string resolved (and no
 * setting when it resolves to `''`), any other scalar as it is (a placeholder is always text).
 */
export function resolveSetting(value: unknown, env: EngineEnv, setting?: Lookup): Resolved<unknown> {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const v of value) {
      if (typeof v !== 'string') {
        out.push(v);
        continue;
      }
      const r = resolvePlaceholders(v, env, setting);
      if (r.state !== 'value') return r;
      out.push(r.value);
    }
    return { state: 'value', value: out };
  }
  if (typeof value !== 'string') return { state: 'value', value };
  const r = resolvePlaceholders(value, env, setting);
  return r.state === 'value' && r.value === '' ? { state: 'value', value: undefined } : r;
}
