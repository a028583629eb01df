/** SearchRequest.validate for a scroll: every rule broken, numbered in one action_request_validation_exception. */
import { ApiFailure } from './errors.ts';
import { flag, type Query } from './http.ts';

export interface ScrollAsk {
  /** track_total_hits as parsed: -1 counts every hit (the only value a scroll allows). */
  trackUpTo: number;
  from: number;
  size: number;
  pit: boolean;
}

/** The engine's messages, in the order it checks them; [] when the scroll may run. */
export function scrollFailures(ask: ScrollAsk, body: Record<string, unknown>, query: Query): string[] {
  const out: string[] = [];
  if (ask.trackUpTo !== -1) out.push('disabling [track_total_hits] is not allowed in a scroll context');
  if (ask.from > 0) out.push('using [from] is not allowed in a scroll context');
  if (ask.size === 0) out.push('[size] cannot be [0] in a scroll context');
  const rescore = body.rescore;
  if (rescore !== undefined && rescore !== null && !(Array.isArray(rescore) && rescore.length === 0))
    out.push('using [rescore] is not allowed in a scroll context');
  if (flag(query, 'request_cache')) out.push('[request_cache] cannot be used in a scroll context');
  if (ask.pit) out.push('using [point in time] is not allowed in a scroll context');
  return out;
}

/** `Validation Failed: 1: a;2: b;` as ActionRequestValidationException writes it. */
export function validationFailed(failures: string[]): ApiFailure {
  const text = failures.map((f, i) => `${i + 1}: ${f};`).join('');
  return new ApiFailure(400, 'action_request_validation_exception', `Validation Failed: ${text}`);
}
