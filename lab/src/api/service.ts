import { ApiFailure } from './errors.ts';
import type { Reply } from './http.ts';
import { route, type Ctx, type Route } from './router.ts';

export const LIMITS_INDEX = '.sm_sme_limits_user';
export const BASE_LIMIT_ID = 'base_limit';
/** The Search Service's own message when the base limit document is missing, word for word. */
export const BASE_LIMIT_MISSING = 'Error while parsing limits: Base user limit not found in index';

/**
 * GET /_core/limits_user/base_limit, the Search Service's read of the base limit. The vendor does not document
 * the shape of a found limit; the lab answers the document's _source as is (`_meta` included), so a caller can
 * compare it to what it PUT. Missing index or document: 404 with the service's exact message as reason.
 */
function baseLimit(ctx: Ctx): Reply {
  // the service reads its index by name, through an alias when the name is one
  const doc = ctx.store.get(ctx.store.aliases()[LIMITS_INDEX]?.[0] ?? LIMITS_INDEX)?.docs.get(BASE_LIMIT_ID);
  if (!doc) throw new ApiFailure(404, 'resource_not_found_exception', BASE_LIMIT_MISSING);
  return { body: doc.source };
}

export const serviceRoutes: Route[] = [route('GET', '/_core/limits_user/base_limit', baseLimit)];
