/** reach/ maps an inventory host onto what transport and the REST client take, each only its own fields. */
import t from 'tap';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clustersOf } from '../../../src/inventory/clusters.ts';
import { hostConfig } from '../../../src/inventory/hostconfig.ts';
import type { Vars } from '../../../src/inventory/types.ts';
import { sshConfigInventory } from '../../helpers/inventory.ts';
import { apiTarget, reachClusters, reachHost, sshTarget } from '../../../src/reach/index.ts';

const dir = await mkdtemp(join(tmpdir(), 'smdoctor-reach-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const home = join(dir, 'home');
await mkdir(join(home, '.ssh'), { recursive: true });
const cfgFile = join(dir, 'ssh_config');
await writeFile(cfgFile, ['Host a', '  HostName 10.9.0.1', '  User deploy', ''].join('\n'));
const env = { HOME: home, PATH: process.env.PATH, USER: 'root' };

const inv = (vars: Record<string, Vars>) => sshConfigInventory(dir, cfgFile, vars);

t.test("the inventory's settings stay its own; reach applies the OpenSSH configuration", async (t) => {
  const i = inv({ a: {} });
  t.equal(hostConfig(i, 'a', env).address, 'a');
  t.equal('ssh' in hostConfig(i, 'a', env), false);
  const r = reachHost(i, 'a', env);
  t.equal(r.address, '10.9.0.1');
  t.equal(r.user, 'deploy');
  t.equal(r.apiUrl, 'https://10.9.0.1:9200');
  t.equal(r.ssh?.configFile, cfgFile);
});

t.test('clusters group by the default url of the resolved address', async (t) => {
  const i = inv({ a: {}, b: { api_url: 'https://10.9.0.1:9200' } });
  t.same(reachClusters(i, ['a', 'b'], env), [{ apiUrl: 'https://10.9.0.1:9200', hosts: ['a', 'b'] }]);
  t.same(
    clustersOf(i, ['a', 'b'], env).map((c) => c.apiUrl),
    ['https://a:9200', 'https://10.9.0.1:9200'],
    'the inventory alone knows only ansible_host',
  );
});

t.test('sshTarget holds what transport uses, apiTarget what the REST client uses', async (t) => {
  const r = reachHost(inv({ a: { api_password_env: 'PW', api_insecure: true } }), 'a', env);
  t.same(Object.keys(sshTarget(r)).sort(), [
    'address',
    'become',
    'connection',
    'hostKeyChecking',
    'knownHostsFile',
    'name',
    'port',
    'privateKeyFile',
    'ssh',
    'user',
  ]);
  const api = apiTarget(r, { requestTimeout: 30_000 });
  t.match(api, { name: 'a', apiUrl: 'https://10.9.0.1:9200', apiPasswordEnv: 'PW', apiInsecure: true });
  t.equal(api.tunnel, undefined, 'no tunnel without api_via_ssh');
  t.equal('engine' in api || 'address' in api, false);
});

t.test('api_via_ssh: the tunnel is opened through the tunnel hosts, an SSH host only', async (t) => {
  const i = inv({ l: { ansible_connection: 'local', api_via_ssh: true } });
  const local = reachHost(i, 'l', env);
  const api = apiTarget(local, { requestTimeout: 5000 });
  t.type(api.tunnel, 'function');
  await t.rejects(api.tunnel!(), { message: 'api_via_ssh: no host to tunnel the API through (l: not an SSH host)' });
});
