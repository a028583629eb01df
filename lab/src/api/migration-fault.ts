/**
 * Test-only switch that makes the lab's migration service deliberately wrong for one rule, so that
 * `migrate --source compare` can be shown to catch a divergence. Off unless the variable is set.
 */
import type { RawMappings } from 'smdoctor';

export const SERVICE_FAULT_ENV = 'SMDOCTOR_LAB_SERVICE_FAULT';

/** `keyword-rule`: the service believes every text field has a keyword sub-field (text without one then gets `text`). */
export function serviceFault(): string | undefined {
  return process.env[SERVICE_FAULT_ENV] || undefined;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function addKeyword(props: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(props)) {
    if (!isObj(v)) out[k] = v;
    else if (v.type === 'text' && !isObj(v.fields))
      out[k] = { ...v, fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
    else out[k] = isObj(v.properties) ? { ...v, properties: addKeyword(v.properties) } : v;
  }
  return out;
}

export function faultyMappings(raw: RawMappings): RawMappings {
  const out: RawMappings = {};
  for (const [index, entry] of Object.entries(raw)) {
    const m = isObj(entry) && isObj(entry.mappings) ? entry.mappings : undefined;
    out[index] = m && isObj(m.properties) ? { mappings: { ...m, properties: addKeyword(m.properties) } } : entry;
  }
  return out;
}
