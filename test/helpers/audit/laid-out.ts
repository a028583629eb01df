/** A host's facts after a full read that found its layout: what serve's memo derives the paths it watches from. */
import type { HostConfig } from '../../../src/inventory/types.ts';
import type { HostFacts } from '../../../src/model/index.ts';
import { emptyHostFacts } from '../../../src/audit/gather-host.ts';

/** An archive install whose engine config is the package's folder; the dashboards' config beside their home. */
export function laidOutFacts(cfg: HostConfig): HostFacts {
  const f = emptyHostFacts(cfg, true);
  f.layout = {
    engineHome: { path: '/app/opensearch', why: 'archive' },
    engineConfig: { path: '/etc/opensearch', why: 'package' },
    webHome: { path: '/app/opensearch-dashboards', why: 'archive' },
    webConfig: { path: '/app/opensearch-dashboards/config', why: 'archive' },
  };
  return f;
}
