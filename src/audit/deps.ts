/** The one place audit reaches the modules it builds on; run.ts loads it lazily so tests can inject fakes instead. */
import { clustersOf, hostConfig } from '../inventory/index.ts';
import { connectTransport, mapLimit } from '../transport/index.ts';
import { runChecks } from '../checks/index.ts';
import { createClusterApi } from '../cluster/client.ts';
import type { AuditDeps } from './run.ts';

export const defaultDeps: AuditDeps = {
  hostConfig,
  clustersOf,
  runChecks,
  mapLimit,
  connect: (cfg, o) => connectTransport(cfg, o),
  api: (cfg, o) => createClusterApi(cfg, o),
};
