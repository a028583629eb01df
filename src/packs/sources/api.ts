/** `api: {path: PATH, pick: DOTTED.PATH}`: a GET of the cluster's REST API, the value at `pick`. */
import * as v from 'valibot';
import { apiRequest } from '../read/sources.ts';
import { pick } from '../read/pick.ts';
import { err, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

// an API path: no scheme, no host, no fragment, no whitespace; a query string is allowed
const API_PATH_RE = /^\/?[A-Za-z0-9_*,.-][A-Za-z0-9_*,.\-/]*(\?[A-Za-z0-9_.,=&*%-]*)?$/;
const PICK_RE = /^[^.\s]+(\.[^.\s]+)*$/;

export const api: SourceKind<'api'> = {
  doc: {
    write: '`api: {path: PATH, pick: DOTTED.PATH}`',
    value:
      "a GET of the cluster's REST API (no body; `each: cluster`): the value at `pick` (`a.b.0.c`; `*` maps over a list)",
  },
  shape: v.strictObject({
    path: v.pipe(
      v.string(),
      v.regex(new RegExp(`^(?!(.*[/?])?\\.\\.([/?]|$))${API_PATH_RE.source.slice(1)}`)),
      v.description('a GET of the REST API (each: cluster)'),
    ),
    pick: v.pipe(v.string(), v.regex(PICK_RE), v.description('a dotted path; * maps over a list')),
  }),
  object: true,
  cluster: true,
  load: (r, at, x) => {
    const o = r.map(at, x, 'api', ['path', 'pick'], ['path', 'pick']);
    if (!o) return undefined;
    const path = r.str([...at, 'path'], o.path, 'api path', {
      re: API_PATH_RE,
      form: 'a path of the REST API (_cluster/settings)',
    });
    if (path?.split(/[/?]/).includes('..')) return r.bad([...at, 'path'], `api path ${JSON.stringify(path)} holds ..`);
    const p = r.str([...at, 'pick'], o.pick, 'api pick', {
      re: PICK_RE,
      form: 'a dotted path (a.b.0.c, * over a list)',
    });
    return path !== undefined && p !== undefined ? { kind: 'api', path, pick: p } : undefined;
  },
  needs: (s, n) => void n.apiPaths.add(s.path),
  read: (s, c) => {
    const a = c.api.packReads?.[s.path];
    if (!a) return err(`GET ${apiRequest(s.path).path} was not read${c.api.error ? `: ${c.api.error}` : ''}`);
    if (a.statusCode !== 200) return err(`GET ${apiRequest(s.path).path} answered ${a.statusCode || 'nothing'}`);
    return ok(pick(a.body, s.pick));
  },
};
