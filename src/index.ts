export { SmdoctorError, UsageError, InputError, TransportError, ApiError, EXIT, exitCodeFor } from './errors.ts';
export type { ErrorCode, SourcePos } from './errors.ts';
export type { Transport, ExecResult, ExecOptions, WriteResult } from './transport/types.ts';
export type { ClusterApi, ApiRequest, ApiResponse } from './cluster/types.ts';
export { main } from './cli/main.ts';
export { VERSION } from './version.ts';
