import { randomBytes } from 'node:crypto';
import { ApiFailure, badRequest } from './errors.ts';
import type { Query, Reply } from './http.ts';
import { route, type Ctx, type Route } from './router.ts';
import type { IndexRecord } from './records.ts';

function shardsInfo(rec: IndexRecord) {
  const total = 1 + Number(rec.settings['index.number_of_replicas']);
  const successful = rec.copies.filter((c) => c.node !== null && c.shard === 0).length;
  return { total, successful: Math.min(successful, total), failed: 0 };
}

function intParam(query: Query, name: string): number | undefined {
  if (query[name] === undefined) return undefined;
  if (!/^-?\d+$/.test(query[name]))
    throw badRequest(`Failed to parse int parameter [${name}] with value [${query[name]}]`);
  return Number(query[name]);
}

function sourceOf(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('request body is required', 'parse_exception');
  return body as Record<string, unknown>;
}

function index(ctx: Ctx, create: boolean): Reply {
  const id = ctx.params.id ?? randomBytes(15).toString('base64url').slice(0, 20);
  const { rec, doc, created } = ctx.store.putDoc(ctx.params.index, id, sourceOf(ctx.body), {
    ifSeqNo: intParam(ctx.query, 'if_seq_no'),
    ifPrimaryTerm: intParam(ctx.query, 'if_primary_term'),
    create: create || ctx.query.op_type === 'create',
  });
  return {
    status: created ? 201 : 200,
    body: {
      _index: rec.name,
      _id: id,
      _version: doc.version,
      result: created ? 'created' : 'updated',
      _shards: shardsInfo(rec),
      _seq_no: doc.seqNo,
      _primary_term: doc.primaryTerm,
    },
  };
}

function getDoc(ctx: Ctx): Reply {
  const rec = ctx.store.require(ctx.params.index);
  const doc = rec.docs.get(ctx.params.id);
  if (!doc) return { status: 404, body: { _index: rec.name, _id: ctx.params.id, found: false } };
  const withSource = ctx.query._source !== 'false';
  return {
    body: {
      _index: rec.name,
      _id: ctx.params.id,
      _version: doc.version,
      _seq_no: doc.seqNo,
      _primary_term: doc.primaryTerm,
      found: true,
      ...(withSource ? { _source: doc.source } : {}),
    },
  };
}

function getSource(ctx: Ctx): Reply {
  const rec = ctx.store.require(ctx.params.index);
  const doc = rec.docs.get(ctx.params.id);
  if (!doc)
    throw new ApiFailure(
      404,
      'resource_not_found_exception',
      `Document not found [${rec.name}]/[_doc]/[${ctx.params.id}]`,
    );
  return { body: doc.source };
}

function deleteDoc(ctx: Ctx): Reply {
  const { rec, seqNo, version, found } = ctx.store.deleteDoc(ctx.params.index, ctx.params.id, {
    ifSeqNo: intParam(ctx.query, 'if_seq_no'),
    ifPrimaryTerm: intParam(ctx.query, 'if_primary_term'),
  });
  return {
    status: found ? 200 : 404,
    body: {
      _index: rec.name,
      _id: ctx.params.id,
      _version: version,
      result: found ? 'deleted' : 'not_found',
      _shards: shardsInfo(rec),
      _seq_no: seqNo,
      _primary_term: 1,
    },
  };
}

export const docRoutes: Route[] = [
  route('PUT,POST', '/{index}/_doc/{id}', (ctx) => index(ctx, false)),
  route('POST', '/{index}/_doc', (ctx) => index(ctx, false)),
  route('PUT,POST', '/{index}/_create/{id}', (ctx) => index(ctx, true)),
  route('GET', '/{index}/_doc/{id}', getDoc),
  route('GET', '/{index}/_source/{id}', getSource),
  route('DELETE', '/{index}/_doc/{id}', deleteDoc),
];
