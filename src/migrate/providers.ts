/** Where mappings and macros come from: files, or a cluster's REST API (behind small interfaces, for fakes). */

import { ApiError } from '../base/errors.ts';
import type { ClusterApi } from '../cluster/types.ts';
import { checkStatus as check, scrollHits } from '../cluster/scroll.ts';
import { MappingsAnswer, SearchPage, shaped } from '../cluster/shapes.ts';
import { validateMacros } from './files.ts';
import type { MacroDef, RawMappings } from '../sml/index.ts';

/** Default index of macro definitions; inventory variable `sml_macros_index` overrides it. */
export const DEFAULT_MACROS_INDEX = '.sm_sme_macros';
export const MACROS_INDEX_VAR = 'sml_macros_index';
const PAGE = 10_000;

export interface MacrosProvider {
  macros(): Promise<MacroDef[]>;
}

export interface MappingsProvider {
  /** One response per `source` pattern list, restricted to the named fields. */
  mappings(sources: string[][], fields: string[]): Promise<RawMappings[]>;
}

export const staticMacros = (defs: MacroDef[]): MacrosProvider => ({ macros: async () => defs });
export const staticMappings = (raw: RawMappings): MappingsProvider => ({ mappings: async () => [raw] });

/** `*` and `,` are pattern syntax in the path; everything else is escaped. */
export const pathPart = (s: string) => encodeURIComponent(s).replace(/%2A/gi, '*').replace(/%2C/gi, ',');

export function clusterMappings(api: ClusterApi): MappingsProvider {
  return {
    async mappings(sources, fields) {
      const out: RawMappings[] = [];
      // without fields, GET _mapping still tells which indices the patterns match (a free-text search is no NO_INDEX_MATCH)
      const tail = fields.length ? `/_mapping/field/${fields.map(pathPart).join(',')}` : '/_mapping';
      for (const patterns of sources) {
        const path = `/${patterns.map(pathPart).join(',')}${tail}`;
        // a missing concrete name must not hide the indices the other patterns match (as offline matching reads the list)
        const res = await api.request({ method: 'GET', path, querystring: { ignore_unavailable: true } });
        if (res.statusCode === 404) continue; // no such index: explain reports NO_INDEX_MATCH
        if (res.statusCode >= 300)
          throw new ApiError(`GET ${api.url}${path} answered ${res.statusCode}`, { statusCode: res.statusCode });
        out.push(shaped(MappingsAnswer, res.body, `GET ${path}`) as RawMappings);
      }
      return out;
    },
  };
}

/** Whether a first page may not hold every hit: `relation: gte` is a lower bound, and a full page may have a next one. */
export function morePages(total: number | { value: number; relation?: string } | undefined, got: number, page: number) {
  if (total === undefined) return got >= page;
  if (typeof total === 'number') return total > got;
  return total.relation === 'gte' || total.value > got;
}

/** All documents of the macros index: one page of up to 10000, scrolling through all of them when there may be more. */
export function clusterMacros(api: ClusterApi, index = DEFAULT_MACROS_INDEX, page = PAGE): MacrosProvider {
  return {
    async macros() {
      const path = `/${pathPart(index)}/_search`;
      // the engine counts hits exactly only up to 10,000 unless asked to count them all
      const body = { size: page, track_total_hits: true, query: { match_all: {} } };
      const first = await api.request({ method: 'POST', path, body });
      if (first.statusCode === 404) return []; // no macros index: no macros
      check(first.statusCode, `POST ${api.url}${path}`);
      const answer = shaped(SearchPage, first.body, `POST ${path}`);
      const docs = answer.hits?.hits ?? [];
      if (morePages(answer.hits?.total, docs.length, page))
        return validate(await scrollAll(api, path, Math.min(page, 1000)), index);
      return validate(
        docs.map((h) => h._source),
        index,
      );
    },
  };
}

async function scrollAll(api: ClusterApi, path: string, size: number): Promise<unknown[]> {
  return ((await scrollHits(api, path, { size })) ?? []).map((h) => h._source);
}

function validate(sources: unknown[], index: string): MacroDef[] {
  return validateMacros(sources, () => ({ file: `index ${index}` }));
}
