import { flag, type Reply } from './http.ts';
import { resolveIndices } from './patterns.ts';
import { listFields, wildcardRe } from './fields.ts';
import { route, type Ctx, type Route } from './router.ts';

function getMapping(ctx: Ctx): Reply {
  const names = resolveIndices(ctx.params.index, ctx.store.names(), {
    aliases: ctx.store.aliases(),
    ignoreUnavailable: flag(ctx.query, 'ignore_unavailable'),
  });
  return { body: Object.fromEntries(names.map((n) => [n, { mappings: ctx.store.get(n)!.mappings }])) };
}

/**
 * GET /<pattern>/_mapping/field/<f1>,<f2>: per index, the requested name → full_name
 * and `mapping` keyed by the last path segment; wildcard names expand to every match.
 */
function getFieldMapping(ctx: Ctx): Reply {
  const names = resolveIndices(ctx.params.index, ctx.store.names(), {
    aliases: ctx.store.aliases(),
    ignoreUnavailable: flag(ctx.query, 'ignore_unavailable'),
  });
  const wanted = ctx.params.fields
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const body: Record<string, unknown> = {};
  for (const n of names) {
    // Object fields are not field mappers on the engine: only leaves answer.
    const fields = listFields(ctx.store.get(n)!.mappings).filter((f) => f.mapping.type !== undefined);
    const out: Record<string, unknown> = {};
    for (const w of wanted) {
      const hits = w.includes('*')
        ? fields.filter((f) => wildcardRe(w).test(f.fullName))
        : fields.filter((f) => f.fullName === w);
      for (const f of hits) {
        const key = w.includes('*') ? f.fullName : w;
        out[key] = { full_name: f.fullName, mapping: { [f.leaf]: f.mapping } };
      }
    }
    body[n] = { mappings: out };
  }
  return { body };
}

export const mappingRoutes: Route[] = [
  route('GET', '/_mapping', getMapping),
  route('GET', '/{index}/_mapping', getMapping),
  route('GET', '/_mapping/field/{fields}', getFieldMapping),
  route('GET', '/{index}/_mapping/field/{fields}', getFieldMapping),
];
