import { readFileSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createSecureContext, type SecureContext } from 'node:tls';
import { Client } from '@opensearch-project/opensearch';
import { ApiError, InputError } from '../base/errors.ts';
import { currentRun } from '../base/run-scope.ts';
import { rememberSecret } from '../text/index.ts';
import { SshTunnelAgent } from './ssh-tunnel.ts';
import { within } from '../base/deadline.ts';
import { maxApiBodyBytes } from '../base/limits.ts';
import { BodyTooLargeError, readCappedBody } from './capped-body.ts';
import { decodeBody, RETRIED } from './decode-body.ts';
import { keptAnswers } from './kept-answers.ts';
import type { ApiRequest, ApiResponse, ApiTarget, ClusterApi } from './types.ts';

/** The password, from api_password_file (owner-only), the environment variable api_password_env names, or api_password. Never logged. */
export function apiPassword(cfg: ApiTarget, env: NodeJS.ProcessEnv): string | undefined {
  if (cfg.apiPasswordFile) {
    let mode: number;
    try {
      const st = statSync(cfg.apiPasswordFile);
      // a directory or a device is a wrong path, said as such (exit 2), not a crash on read
      if (!st.isFile()) throw new Error('not a regular file');
      mode = st.mode;
    } catch (cause) {
      throw new InputError(
        `api_password_file ${cfg.apiPasswordFile} of host ${cfg.name} cannot be read${(cause as Error).message === 'not a regular file' ? ': it is not a regular file' : ''}`,
        { cause },
      );
    }
    if (mode & 0o077) {
      throw new InputError(`api_password_file ${cfg.apiPasswordFile} is readable by group or others: chmod 600 it`);
    }
    const password = readFileSync(cfg.apiPasswordFile, 'utf8').replace(/\r?\n$/, '');
    rememberSecret(password);
    return password;
  }
  rememberSecret(env[cfg.apiPasswordEnv]);
  // api_password (from a vault, usually) ranks after the file and the environment variable
  if (env[cfg.apiPasswordEnv] === undefined && cfg.apiPassword !== undefined) {
    rememberSecret(cfg.apiPassword);
    return cfg.apiPassword;
  }
  return env[cfg.apiPasswordEnv];
}

export interface ClusterApiOptions {
  env?: NodeJS.ProcessEnv;
  /** Milliseconds per request: headers and the whole body, retries included (the CLI's --timeout). */
  requestTimeout: number;
  /** Told once when TLS verification is off. */
  warn?: (message: string) => void;
  /** Connections to the API at most (more requests wait for one): a kept client's pool stops growing. */
  maxSockets?: number;
  /**
   * serve: each GET's last answer is kept, and an answer whose bytes are the same is not parsed again: its body is
   * the very (frozen) object of last time, so what was made from it can be kept too.
   */
  keepAnswers?: boolean;
}

/** A cluster's clients share one warning per run (audit, then fix, open one each). */
function warnOnce(opts: ClusterApiOptions, message: string): void {
  const { warned } = currentRun();
  if (warned.has(message)) return;
  warned.add(message);
  opts.warn?.(message);
}

// One TLS context per CA: given `ca`, every connection built its own (the PEM parsed, a trust store made), which at
// 40 clusters of 10 parallel reads was 400 contexts alive at once.
const contexts = new Map<string, SecureContext>();
const contextFor = (ca: string): SecureContext => {
  let context = contexts.get(ca);
  if (!context) contexts.set(ca, (context = createSecureContext({ ca })));
  return context;
};

/** The one place the official client is wired. Every HTTP status resolves; transport failures reject with ApiError. */
export function createClusterApi(cfg: ApiTarget, opts: ClusterApiOptions): ClusterApi {
  const env = opts.env ?? {};
  // api_password_file/env first; a password written into api_url still authenticates, with a warning
  const password = apiPassword(cfg, env) ?? cfg.apiUrlPassword;
  const username = cfg.apiUsername ?? cfg.apiUrlUsername;
  if (cfg.apiUrlUsername || cfg.apiUrlPassword) {
    warnOnce(
      opts,
      `api_url ${cfg.apiUrl} has a user and password written in it (they are used, never shown); they belong in api_username and api_password_file or api_password_env`,
    );
  }
  if (username && /^http:/i.test(cfg.apiUrl)) {
    warnOnce(
      opts,
      `basic auth to ${cfg.apiUrl} goes over plain http: the password crosses the network in clear text; use https://`,
    );
  }
  if (cfg.apiInsecure)
    opts.warn?.(`TLS verification is OFF for ${cfg.apiUrl} (api_insecure): the API's identity is not checked`);
  let ca: string | undefined;
  if (cfg.apiCaFile) {
    try {
      ca = readFileSync(cfg.apiCaFile, 'utf8');
    } catch (cause) {
      throw new InputError(`api_ca_file ${cfg.apiCaFile} of host ${cfg.name} cannot be read`, { cause });
    }
  }
  const tunnel = cfg.tunnel;
  const tls = { ...(ca ? { secureContext: contextFor(ca) } : {}), rejectUnauthorized: !cfg.apiInsecure };
  const client = new Client({
    node: cfg.apiUrl,
    ...(username ? { auth: { username, password: password ?? '' } } : {}),
    ssl: tls,
    ...(tunnel
      ? {
          agent: () =>
            new SshTunnelAgent({
              open: tunnel,
              tls,
            }),
        }
      : opts.maxSockets
        ? { agent: { keepAlive: true, maxSockets: opts.maxSockets, maxFreeSockets: opts.maxSockets } }
        : {}),
    requestTimeout: opts.requestTimeout,
    maxRetries: 1,
    // stored documents may hold 64-bit integers (ids, fingerprints): BigInt both ways, never rounded
    enableLongNumeralSupport: true,
  });
  // the client's own timeout is the socket's idle time and ends with the headers: a body that stalls or trickles needs this one
  const total = opts.requestTimeout;
  const cap = maxApiBodyBytes(env);
  // the body is read here, not by the client: it would keep all of it in memory, however large
  const attempt = (req: ApiRequest, abortables: Set<() => void>): Promise<ApiResponse> => {
    const pending = client.transport.request(
      {
        method: req.method,
        path: req.path,
        querystring: req.querystring ?? {},
        // the request's own body, going out: not an answer to read
        // eslint-disable-next-line no-restricted-syntax
        ...(req.body === undefined ? {} : { body: req.body as Record<string, unknown> }),
      },
      { asStream: true },
    );
    abortables.add(() => pending.abort());
    return Promise.resolve(pending).then(async (res) => {
      // asStream: the body is the socket's stream, read (capped) and decoded below
      // eslint-disable-next-line no-restricted-syntax
      const stream = res.body as unknown as Readable;
      abortables.add(() => stream.destroy());
      const bytes = await readCappedBody(stream, res.headers ?? {}, cap);
      const statusCode = res.statusCode ?? 200;
      const decode = () => decodeBody(client.transport.serializer, req.method, statusCode, res.headers ?? {}, bytes);
      return { statusCode, body: kept ? kept.body(req, statusCode, res.headers ?? {}, bytes, decode) : decode() };
    });
  };
  const kept = opts.keepAnswers ? keptAnswers() : undefined;
  return {
    url: cfg.apiUrl,
    async request(req: ApiRequest): Promise<ApiResponse> {
      const abortables = new Set<() => void>();
      const work = (async () => {
        const first = await attempt(req, abortables);
        // one retry of a gateway's 502/503/504, as the client did when it read the body itself
        return RETRIED.has(first.statusCode) ? attempt(req, abortables) : first;
      })();
      try {
        return await within(work, total, `${req.method} ${req.path}`, () => abortables.forEach((a) => a()));
      } catch (err) {
        if (err instanceof BodyTooLargeError)
          throw new ApiError(`${req.method} ${cfg.apiUrl}${req.path}: ${err.message}`, { cause: err });
        const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        throw new ApiError(`${req.method} ${cfg.apiUrl}${req.path} failed: ${what}`, { cause: err });
      }
    },
    close: () => client.close(),
  };
}
