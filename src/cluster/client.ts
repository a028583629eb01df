import { readFileSync, statSync } from 'node:fs';
import { Client, errors } from '@opensearch-project/opensearch';
import { ApiError, InputError } from '../errors.ts';
import type { HostConfig } from '../inventory/types.ts';
import { rememberSecret } from '../secrets.ts';
import type { ApiRequest, ApiResponse, ClusterApi } from './types.ts';

/** The password, from api_password_file (owner-only) or the environment variable it names. Never logged. */
export function apiPassword(cfg: HostConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (cfg.apiPasswordFile) {
    let mode: number;
    try {
      mode = statSync(cfg.apiPasswordFile).mode;
    } catch (cause) {
      throw new InputError(`api_password_file ${cfg.apiPasswordFile} of host ${cfg.name} cannot be read`, { cause });
    }
    if (mode & 0o077) {
      throw new InputError(
        `api_password_file ${cfg.apiPasswordFile} is readable by group or others: chmod 600 it`,
      );
    }
    const password = readFileSync(cfg.apiPasswordFile, 'utf8').replace(/\r?\n$/, '');
    rememberSecret(password);
    return password;
  }
  rememberSecret(env[cfg.apiPasswordEnv]);
  return env[cfg.apiPasswordEnv];
}

export interface ClusterApiOptions {
  env?: NodeJS.ProcessEnv;
  /** Milliseconds per request. */
  requestTimeout?: number;
  /** Told once when TLS verification is off. */
  warn?: (message: string) => void;
}

/** The one place the official client is wired. Every HTTP status resolves; transport failures reject with ApiError. */
export function createClusterApi(cfg: HostConfig, opts: ClusterApiOptions = {}): ClusterApi {
  const env = opts.env ?? process.env;
  const password = apiPassword(cfg, env);
  if (cfg.apiInsecure) opts.warn?.(`TLS verification is OFF for ${cfg.apiUrl} (api_insecure): the API's identity is not checked`);
  let ca: string | undefined;
  if (cfg.apiCaFile) {
    try {
      ca = readFileSync(cfg.apiCaFile, 'utf8');
    } catch (cause) {
      throw new InputError(`api_ca_file ${cfg.apiCaFile} of host ${cfg.name} cannot be read`, { cause });
    }
  }
  const client = new Client({
    node: cfg.apiUrl,
    ...(cfg.apiUsername ? { auth: { username: cfg.apiUsername, password: password ?? '' } } : {}),
    ssl: { ...(ca ? { ca } : {}), rejectUnauthorized: !cfg.apiInsecure },
    requestTimeout: opts.requestTimeout ?? 30_000,
    maxRetries: 1,
    // stored documents may hold 64-bit integers (ids, fingerprints): BigInt both ways, never rounded
    enableLongNumeralSupport: true,
  });
  return {
    url: cfg.apiUrl,
    async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      try {
        const res = await client.transport.request({
          method: req.method,
          path: req.path,
          querystring: req.querystring ?? {},
          ...(req.body === undefined ? {} : { body: req.body as Record<string, unknown> }),
        });
        return { statusCode: res.statusCode ?? 200, body: res.body as T };
      } catch (err) {
        if (err instanceof errors.ResponseError) {
          return { statusCode: err.meta.statusCode ?? 500, body: err.meta.body as T };
        }
        const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        throw new ApiError(`${req.method} ${cfg.apiUrl}${req.path} failed: ${what}`, { cause: err });
      }
    },
    close: () => client.close(),
  };
}
