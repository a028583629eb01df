/** What checks see of a cluster's REST API; the opensearch client is wired in client.ts only. */
import type { Duplex } from 'node:stream';
import type { ApiFields } from '../model/index.ts';

export interface ApiResponse<T = unknown> {
  statusCode: number;
  body: T;
}

export interface ApiRequest {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'HEAD';
  path: string;
  querystring?: Record<string, string | number | boolean>;
  body?: unknown;
}

export interface ClusterApi {
  readonly url: string;
  /**
   * Resolves for every HTTP status (the caller decides); rejects with ApiError on connection failure or timeout. The
   * body is unknown: it is read through a schema (cluster/shapes.ts, `shaped`), never cast.
   */
  request(req: ApiRequest): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** What carries the API's connections under api_via_ssh: a channel to host:port through an SSH route. */
export interface Tunnel {
  forward(host: string, port: number): Promise<Duplex>;
  close(): Promise<void>;
}

/** A cluster's REST API as the client reaches it: the URL, credentials and TLS settings of one host's inventory. */
export interface ApiTarget extends ApiFields {
  /** Inventory host name, for messages. */
  name: string;
  /** api_via_ssh: opens the tunnel (once per agent, lazily); the caller wires it, so the client knows no SSH. */
  tunnel?: () => Promise<Tunnel>;
}
