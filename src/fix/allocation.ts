/** The allocation setting (ALLOCATION_KEY): read both layers, hold at `primaries`, put back exactly what was there. */
import { ALLOCATION_KEY } from '../model/index.ts';
import * as v from 'valibot';
import type { ClusterApi } from '../cluster/types.ts';
import { Acknowledged, answerObject, shaped } from '../cluster/shapes.ts';
import { apiErrorText } from './api-error.ts';

/** The value in each layer; `null` when unset there. */
export interface AllocationSetting {
  persistent: string | null;
  transient: string | null;
}

// with flat_settings, each layer holds the key itself; a value that is not a string is named, never read as unset
const Layer = v.optional(answerObject({ [ALLOCATION_KEY]: v.nullish(v.string()) }));
const AllocationAnswer = answerObject({ persistent: Layer, transient: Layer });

export async function readAllocation(api: ClusterApi): Promise<AllocationSetting> {
  const r = await api.request({
    method: 'GET',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
  });
  if (r.statusCode !== 200) throw new Error(`GET /_cluster/settings: ${apiErrorText(r.statusCode, r.body)}`);
  const b = shaped(AllocationAnswer, r.body, 'GET /_cluster/settings');
  return { persistent: b.persistent?.[ALLOCATION_KEY] ?? null, transient: b.transient?.[ALLOCATION_KEY] ?? null };
}

export const describeAllocation = (s: AllocationSetting): string =>
  `persistent ${s.persistent ?? 'unset'}, transient ${s.transient ?? 'unset'}`;

async function put(api: ClusterApi, body: Record<string, unknown>): Promise<void> {
  const r = await api.request({ method: 'PUT', path: '/_cluster/settings', body });
  if (r.statusCode !== 200 || shaped(Acknowledged, r.body, 'PUT /_cluster/settings').acknowledged !== true) {
    throw new Error(
      `PUT /_cluster/settings: ${r.statusCode === 200 ? 'not acknowledged' : apiErrorText(r.statusCode, r.body)}`,
    );
  }
}

/** Persistent `primaries`; a transient value would override it, so it is held at `primaries` too (and restored). */
export async function holdPrimaries(api: ClusterApi, was: AllocationSetting): Promise<void> {
  await put(api, {
    persistent: { [ALLOCATION_KEY]: 'primaries' },
    ...(was.transient !== null ? { transient: { [ALLOCATION_KEY]: 'primaries' } } : {}),
  });
}

/** Exactly what was there: `null` removes a layer's value. */
export async function restoreAllocation(api: ClusterApi, was: AllocationSetting): Promise<void> {
  await put(api, { persistent: { [ALLOCATION_KEY]: was.persistent }, transient: { [ALLOCATION_KEY]: was.transient } });
}

/** reset-allocation: both layers back to unset (the engine's default, `all`). */
export async function resetAllocation(api: ClusterApi): Promise<void> {
  await put(api, { persistent: { [ALLOCATION_KEY]: null }, transient: { [ALLOCATION_KEY]: null } });
}
