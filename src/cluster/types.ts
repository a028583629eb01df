/** What checks see of a cluster's REST API; the opensearch client is wired in client.ts only. */

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
  /** Resolves for every HTTP status (the caller decides); rejects with ApiError on connection failure or timeout. */
  request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}
