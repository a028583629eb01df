import t from 'tap';
import { clustersOf } from '../../../src/inventory/clusters.ts';
import { parseInventory } from '../../../src/inventory/load.ts';
import { selectHosts } from '../../../src/inventory/select.ts';

const cases: Array<{ name: string; ini: string; want: Array<{ apiUrl: string; hosts: string[] }> }> = [
  {
    name: 'no api_url: one cluster at the first host',
    ini: '[g]\nn1 ansible_host=10.0.0.1\nn2\n',
    want: [{ apiUrl: 'https://10.0.0.1:9200', hosts: ['n1', 'n2'] }],
  },
  {
    name: 'explicit urls split the fleet',
    ini: '[a]\na1\na2\n[b]\nb1\n[a:vars]\napi_url=https://a:9200\n[b:vars]\napi_url=https://b:9200\n',
    want: [
      { apiUrl: 'https://a:9200', hosts: ['a1', 'a2'] },
      { apiUrl: 'https://b:9200', hosts: ['b1'] },
    ],
  },
  {
    name: 'implicit url equal to an explicit one is the same cluster',
    ini: '[g]\nx1\nn1 api_url=https://x1:9200\n',
    want: [{ apiUrl: 'https://x1:9200', hosts: ['x1', 'n1'] }],
  },
  {
    name: 'IPv6 address is bracketed',
    ini: '[g]\nn1 ansible_host=fd00::1\n',
    want: [{ apiUrl: 'https://[fd00::1]:9200', hosts: ['n1'] }],
  },
];
for (const c of cases) {
  t.test(c.name, async (t) => {
    const inv = parseInventory(c.ini, 'c.ini');
    t.strictSame(clustersOf(inv, selectHosts(inv)), c.want);
  });
}
