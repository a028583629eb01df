/** api_via_ssh against the lab: the REST API through an SSH channel, TLS still verified against the api_url name. */
import t from 'tap';
import { join } from 'node:path';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import { generateLabTls } from '../../../lab/src/tls.ts';
import { loadInventory } from '../../../src/inventory/load.ts';
import type { HostConfig } from '../../../src/inventory/types.ts';
import { reachHost as hostConfig } from '../../../src/reach/index.ts';
import { openClusterApi } from '../../../src/reach/deps.ts';
import { stopPid } from '../../../lab/src/sshd.ts';
import { readFile } from 'node:fs/promises';
import { requestAs } from '../../helpers/request-as.ts';

const lab: Lab = await startLab({ scenario: 'healthy' });
t.teardown(() => lab.stop());
const inv = await loadInventory(lab.inventoryPath);
const names = [...inv.hosts.keys()];
const cfg = (name: string, over: Partial<HostConfig> = {}): HostConfig => ({ ...hostConfig(inv, name, {}), ...over });
const health = async (c: HostConfig, tunnelHosts?: HostConfig[]) => {
  const api = openClusterApi(c, { env: {}, requestTimeout: 30_000, ...(tunnelHosts ? { tunnelHosts } : {}) });
  try {
    return await requestAs<{ status: string }>(api, { method: 'GET', path: '/_cluster/health' });
  } finally {
    await api.close();
  }
};

t.test('the API through the first host: TLS name verification passes', async (t) => {
  const first = cfg(names[0]!, { apiViaSsh: true });
  t.match(first.apiUrl, /^https:\/\/127\./);
  const res = await health(
    first,
    names.map((n) => cfg(n)),
  );
  t.equal(res.statusCode, 200);
  t.match(res.body, { status: /green|yellow/ });
});

t.test('through a named host; when its sshd is down the API fails: the traffic really goes over SSH', async (t) => {
  const second = names[1]!;
  const viaNamed = cfg(names[0]!, { apiViaSsh: second });
  t.equal((await health(viaNamed, [cfg(second)])).statusCode, 200);
  const pid = Number((await readFile(join(lab.dir, 'nodes', second, 'sshd', 'sshd.pid'), 'utf8')).trim());
  await stopPid(pid);
  await t.rejects(health(viaNamed, [cfg(second)]), {
    name: 'ApiError',
    message: /api_via_ssh: no host to tunnel the API through/,
  });
  // without the tunnel the same API still answers directly: the failure above was the SSH path
  t.equal((await health(cfg(names[0]!))).statusCode, 200);
});

t.test('a wrong CA still fails through the tunnel', async (t) => {
  const other = await generateLabTls(join(lab.dir, 'other-ca'), ['127.0.0.1']);
  const wrong = cfg(names[0]!, { apiViaSsh: true, apiCaFile: other.caFile });
  await t.rejects(health(wrong, [cfg(names[0]!)]), {
    name: 'ApiError',
    message: /certificate|self.signed|unable to verify/i,
  });
});
