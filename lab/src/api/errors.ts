/** Engine-shaped failures: every error body is {"error":{root_cause,type,reason,…},"status":<HTTP status>}. */

export class ApiFailure extends Error {
  readonly status: number;
  readonly type: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  /** The REST layer's own answers (no handler, wrong method) are a bare `error` string, not an exception object. */
  plain?: Record<string, unknown>;
  /** The engine sends `"reason": null` for some exceptions (no elected cluster manager). */
  nullReason = false;
  /** A text body instead of JSON (the security plugin's 401). */
  text?: string;
  constructor(
    status: number,
    type: string,
    reason: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(reason);
    this.name = 'ApiFailure';
    this.status = status;
    this.type = type;
    this.extra = extra;
    this.headers = headers;
  }
  /** The body a real cluster sends: the root cause repeats the top-level cause. */
  body(): Record<string, unknown> {
    if (this.plain) return this.plain;
    const cause = { type: this.type, reason: this.nullReason ? null : this.message, ...this.extra };
    return { error: { root_cause: [cause], ...cause }, status: this.status };
  }
}

export const badRequest = (reason: string, type = 'illegal_argument_exception') => new ApiFailure(400, type, reason);

export const parsingException = (reason: string) =>
  new ApiFailure(400, 'parsing_exception', reason, { line: 1, col: 1 });

export function indexNotFound(index: string): ApiFailure {
  return new ApiFailure(404, 'index_not_found_exception', `no such index [${index}]`, {
    index,
    'resource.id': index,
    'resource.type': 'index_or_alias',
    index_uuid: '_na_',
  });
}

/** RestController.handleBadRequest: `uri` is the request's path with its query string. */
export function noHandler(uri: string, method: string): ApiFailure {
  const f = badRequest(`no handler found for uri [${uri}] and method [${method}]`);
  f.plain = { error: f.message };
  return f;
}

/** RestController.handleUnsupportedHttpMethod: a bare error string with the status, and an `Allow` header. */
export function methodNotAllowed(uri: string, method: string, allowed: string[]): ApiFailure {
  const f = new ApiFailure(
    405,
    'illegal_argument_exception',
    `Incorrect HTTP method for uri [${uri}] and method [${method}], allowed: [${allowed.join(', ')}]`,
    {},
    { allow: allowed.join(',') },
  );
  f.plain = { error: f.message, status: 405 };
  return f;
}

// The security plugin's HTTPBasicAuthenticator.reRequestAuthentication: a bare text body and its realm.
const AUTH_HEADER = 'Basic realm="OpenSearch Security"';

/** Missing or wrong credentials: 401 `Unauthorized` as plain text, with the challenge header. */
export function unauthorized(reason: string): ApiFailure {
  const f = new ApiFailure(401, 'security_exception', reason, {}, { 'www-authenticate': AUTH_HEADER });
  f.text = 'Unauthorized';
  return f;
}

/** The security plugin's PrivilegesEvaluator refusal: the action the user lacks, and the user as it prints it. */
export function forbidden(action: string, user: string): ApiFailure {
  return new ApiFailure(
    403,
    'security_exception',
    `no permissions for [${action}] and User [name=${user}, backend_roles=[], requestedTenant=null]`,
  );
}

/** No cluster manager is elected: the engine's body, whose reason is null. */
export function noManager(): ApiFailure {
  const e = new ApiFailure(503, 'cluster_manager_not_discovered_exception', '');
  e.nullReason = true;
  return e;
}
