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

/**
 * A setting as the engine would load it: its value (undefined: no such setting), unknown, refused at start, or past
 * the limits below (a node's file could otherwise hold up or crash the whole audit): not resolved, for this setting.
 */
export type Resolved<T> =
  | { state: 'value'; value: T }
  | { state: 'unknown'; names: string[] }
  | { state: 'refused'; message: string }
  | { state: 'limit'; message: string };

/** Placeholders nested (in a name or a resolved value) at most this deep. */
export const MAX_PLACEHOLDER_DEPTH = 64;
/** At most this many placeholders resolved for one setting. */
export const MAX_PLACEHOLDERS = 10_000;
/** At most this many characters scanned for one setting, every resolved value counted (no exponential growth). */
export const MAX_PLACEHOLDER_TEXT = 8 * 1024 * 1024;

// why a placeholder cannot be resolved here: the engine refuses it, the environment was not read, or a limit
class Refused extends Error {}
class Limit extends Error {}
class Unknown extends Error {
  readonly names: string[];
  constructor(names: string[]) {
    super(names.join(', '));
    this.names = names;
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

/** One level of PropertyPlaceholder.parseStringValue's recursion, kept on an explicit stack. */
interface Frame {
  str: string;
  /** Where the text not yet copied to `out` starts. */
  pos: number;
  out: string[];
  /** The placeholder being resolved at this level: `str[start..end]`, waiting for its name or its value. */
  start: number;
  end: number;
  waiting: 'name' | 'value' | null;
  name: string;
}

/**
 * PropertyPlaceholder.parseStringValue, its quirks kept (the visited set keeps `A:x`, it removes only `A`), without
 * recursion and in linear time: text after a resolved value is never scanned again, as in the engine.
 */
function parse(text: string, lookup: Lookup): string {
  const visited = new Set<string>();
  const stack: Frame[] = [];
  let count = 0;
  let scanned = 0;
  const push = (str: string): void => {
    if (stack.length >= MAX_PLACEHOLDER_DEPTH)
      throw new Limit(`placeholders nested more than ${MAX_PLACEHOLDER_DEPTH} deep`);
    scanned += str.length;
    if (scanned > MAX_PLACEHOLDER_TEXT) throw new Limit(`more than ${MAX_PLACEHOLDER_TEXT} characters to resolve`);
    stack.push({ str, pos: 0, out: [], start: 0, end: 0, waiting: null, name: '' });
  };
  push(text);
  let ret: string | undefined; // what the level just finished hands back to the one under it
  for (;;) {
    const f = stack[stack.length - 1]!;
    if (ret !== undefined) {
      const r = ret;
      ret = undefined;
      if (f.waiting === 'name') {
        const colon = r.indexOf(':');
        const fallback = colon === -1 ? undefined : r.slice(colon + 1);
        const name = colon === -1 ? r : r.slice(0, colon);
        const value = lookup(name) ?? fallback;
        if (value === undefined && name.startsWith('prompt.')) {
          stack.pop();
          if (stack.length === 0) return f.str;
          ret = f.str;
          continue;
        }
        if (value === undefined) throw new Refused(`Could not resolve placeholder '${name}'`);
        f.name = name;
        f.waiting = 'value';
        push(value);
        continue;
      }
      f.out.push(f.str.slice(f.pos, f.start), r);
      f.pos = f.end + SUFFIX.length;
      f.waiting = null;
      visited.delete(f.name);
    }
    const start = f.str.indexOf(PREFIX, f.pos);
    const end = start === -1 ? -1 : endIndex(f.str, start);
    if (end === -1) {
      f.out.push(f.str.slice(f.pos));
      stack.pop();
      const done = f.out.join('');
      if (stack.length === 0) return done;
      ret = done;
      continue;
    }
    const raw = f.str.slice(start + PREFIX.length, end);
    if (visited.has(raw)) throw new Refused(`Circular placeholder reference '${raw}' in property definitions`);
    visited.add(raw);
    if (++count > MAX_PLACEHOLDERS) throw new Limit(`more than ${MAX_PLACEHOLDERS} placeholders`);
    f.start = start;
    f.end = end;
    f.waiting = 'name';
    push(raw);
  }
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
    return { state: 'value', value: parse(text, lookup) };
  } catch (err) {
    if (err instanceof Unknown) return { state: 'unknown', names: namesIn(text) };
    if (err instanceof Refused) return { state: 'refused', message: err.message };
    if (err instanceof Limit) return { state: 'limit', message: `${err.message}: not resolved` };
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
