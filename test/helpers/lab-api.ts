/** smdoctor's REST client against a lab API (lab/test/helpers/api-fixture.ts): its CA trusted, its admin signed in. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { AUTH } from '../../lab/test/helpers/api-fixture.ts';
import { createClusterApi } from '../../src/cluster/client.ts';
import type { ClusterApi } from '../../src/cluster/types.ts';
import { hostConfigOf } from './host-config.ts';

export interface LabApiOptions {
  /** Another address than the lab's (one nothing listens on, say). */
  apiUrl?: string;
  /** Milliseconds a request may take: 30 s unless said. */
  requestTimeout?: number;
}

/** The client the product builds for an inventory host whose api_url is the lab's; closed when `t` ends. */
export function labApi(t: Test, lab: { url: string; ca: string }, o: LabApiOptions = {}): ClusterApi {
  const dir = mkdtempSync(join(tmpdir(), 'smdoctor-lab-api-'));
  writeFileSync(join(dir, 'ca.pem'), lab.ca);
  const config = hostConfigOf('api', {
    apiUrl: o.apiUrl ?? lab.url,
    apiUsername: AUTH.username,
    apiPasswordEnv: 'LAB_PW',
    apiCaFile: join(dir, 'ca.pem'),
  });
  const api = createClusterApi(config, { env: { LAB_PW: AUTH.password }, requestTimeout: o.requestTimeout ?? 30_000 });
  t.teardown(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return api;
}
