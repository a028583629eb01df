import { badRequest } from './errors.ts';

export interface AutoExpand {
  min: number;
  /** null means `all`. */
  max: number | null;
}

const KEY = 'index.auto_expand_replicas';

/** Parses index.auto_expand_replicas as the engine does; "false" → null; bad values → 400 illegal_argument_exception. */
export function parseAutoExpand(value: string | undefined): AutoExpand | null {
  if (value === undefined || value === 'false') return null;
  const dash = value.indexOf('-');
  if (dash <= 0) throw badRequest(`failed to parse [${KEY}] from value: [${value}] at index ${dash}`);
  const minText = value.slice(0, dash);
  const maxText = value.slice(dash + 1);
  const min = /^\d+$/.test(minText) ? Number(minText) : NaN;
  const max = maxText === 'all' ? null : /^\d+$/.test(maxText) ? Number(maxText) : NaN;
  if (Number.isNaN(min) || (max !== null && Number.isNaN(max))) {
    throw badRequest(`failed to parse [${KEY}] from value: [${value}] at index ${dash}`);
  }
  if (max !== null && min > max) {
    throw badRequest(`[${KEY}] minReplicas must be =< maxReplicas but wasn't ${min} > ${max}`);
  }
  return { min, max };
}

/** Replica count the cluster sets: data nodes − 1 clamped to [min, max]. */
export function expandedReplicas(ae: AutoExpand, dataNodes: number): number {
  const wanted = Math.max(dataNodes - 1, 0);
  const upper = ae.max === null ? wanted : Math.min(wanted, ae.max);
  return Math.max(ae.min, upper);
}
