/**
 * The allocation setting (ALLOCATION_KEY) belongs to the plan: every rolling restart holds it at `primaries` and puts
 * back what was there, and reset-allocation clears a leftover. No other action may change it, in either layer.
 */
import { ALLOCATION_KEY } from '../model/index.ts';

/** Whether a settings request sets the allocation setting: persistent or transient, flat or nested keys. */
export function setsAllocation(apiPath: string, body: unknown): boolean {
  if (apiPath.replace(/\/+$/, '') !== '/_cluster/settings') return false;
  const flat = (o: unknown, pre: string): string[] =>
    o && typeof o === 'object' && !Array.isArray(o)
      ? Object.entries(o).flatMap(([k, v]) => flat(v, pre ? `${pre}.${k}` : k))
      : [pre];
  return flat(body, '').some((k) => k.replace(/^(persistent|transient)\./, '') === ALLOCATION_KEY);
}
