/** A REST answer read as a test expects it: src/ reads every answer through a schema, a test asserts on what it got. */
import type { ApiRequest, ApiResponse, ClusterApi } from '../../src/cluster/types.ts';

export const requestAs = <T>(api: ClusterApi, req: ApiRequest): Promise<ApiResponse<T>> =>
  api.request(req) as Promise<ApiResponse<T>>;
