import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { planLayout, hostCount } from '../../src/layout.ts';
import { inventoryYaml } from '../../src/inventory.ts';
import { fleetScenario } from '../../src/fleet.ts';
import { loadScenario } from '../../src/scenario.ts';

const ips = (n: number) => Array.from({ length: n }, (_, i) => `127.50.60.${i + 1}`);

t.test('fleet inventory: one parent group per cluster with its api_url; ansible-inventory agrees', async (t) => {
  const s = fleetScenario(2, 3);
  const dir = t.testdir({});
  const layout = planLayout(s, dir, ips(hostCount(s)));
  const f = join(dir, 'inventory.yml');
  writeFileSync(f, inventoryYaml(layout, 'someone'));
  const r = await execa('ansible-inventory', ['-i', f, '--list'], { reject: false });
  t.equal(r.exitCode, 0, r.stderr);
  const inv = JSON.parse(r.stdout);
  t.same(inv.c1.hosts.sort(), ['c1-d1', 'c1-d2', 'c1-m1']);
  t.same(inv.cluster_managers.hosts.sort(), ['c1-m1', 'c2-m1']);
  t.same(inv.dashboards.hosts.sort(), ['c1-d1', 'c2-d1']);
  t.match(inv._meta.hostvars['c2-d2'], {
    api_url: 'https://127.50.60.5:9200',
    ansible_user: 'someone',
    engine_user: 'someone',
    ansible_host: '127.50.60.6',
  });
  t.match(inv._meta.hostvars['c1-m1'], {
    api_url: 'https://127.50.60.2:9200',
    restart_command: `${dir}/bin/labctl c1-m1 restart {service}`,
  });
});

t.test('default topology: 7 hosts, api_url on a data node, absolute paths', async (t) => {
  const s = loadScenario('healthy');
  t.equal(hostCount(s), 7);
  const l = planLayout(s, 'rel/lab', ips(7));
  t.equal(l.clusters[0]!.apiUrl, 'https://127.50.60.4:9200');
  t.ok(l.hosts.every((h) => h.searchHome.startsWith('/')));
  t.match(inventoryYaml(l), /not a search engine/);
});
