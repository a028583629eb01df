import { ApiFailure } from './errors.ts';
import type { Reply } from './http.ts';
import { route, type Ctx, type Route } from './router.ts';

export const LIMITS_INDEX = '.sm_sme_limits_user';
export const BASE_LIMIT_ID = 'base_limit';
/** Seed §7.1, exactly. */
export const BASE_LIMIT_MISSING = 'Error while parsing limits: Base user limit not found in index';

/**
 * GET /_core/limits_user/base_limit (seed §4.1). The seed does not show the
 * found shape; the lab answers the document's _source as is (the fields of
 * seed §2.1, `_meta` included), so a caller can compare it to what it PUT.
 * Missing index or document: 404 with the seed's exact message as reason.
 */
function baseLimit(ctx: Ctx): Reply {
  // the service reads its index by name, through an alias when the name is one
  const doc = ctx.store.get(ctx.store.aliases()[LIMITS_INDEX]?.[0] ?? LIMITS_INDEX)?.docs.get(BASE_LIMIT_ID);
  if (!doc) throw new ApiFailure(404, 'resource_not_found_exception', BASE_LIMIT_MISSING);
  return { body: doc.source };
}

export const serviceRoutes: Route[] = [route('GET', '/_core/limits_user/base_limit', baseLimit)];
