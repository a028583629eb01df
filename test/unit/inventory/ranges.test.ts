import t from 'tap';
import { expandHostPattern } from '../../../src/inventory/ranges.ts';

const cases: Array<{
  p: string;
  hosts?: string[];
  first?: string;
  last?: string;
  count?: number;
  port?: number;
  err?: RegExp;
}> = [
  { p: 'm[1:3].example', hosts: ['m1.example', 'm2.example', 'm3.example'] },
  { p: 'web[01:20]', count: 20, first: 'web01', last: 'web20' },
  { p: 'db-[a:c]', hosts: ['db-a', 'db-b', 'db-c'] },
  { p: 'n[0:10:2]', hosts: ['n0', 'n2', 'n4', 'n6', 'n8', 'n10'] },
  { p: 'r[1:2]-[a:b]', hosts: ['r1-a', 'r1-b', 'r2-a', 'r2-b'] },
  { p: 'host.example.com:2222', hosts: ['host.example.com'], port: 2222 },
  { p: 'w[1:2]:2200', hosts: ['w1', 'w2'], port: 2200 },
  { p: '192.0.2.[1:3]', count: 3, last: '192.0.2.3' },
  { p: '[2001:db8::1]:22', hosts: ['2001:db8::1'], port: 22 },
  { p: 'plain', hosts: ['plain'] },
  { p: 'web[01:3]', err: /equal-length/ },
  { p: 'web[1:2:3:4]', err: /begin:end/ },
  { p: 'web[c:a]', err: /begin <= end/ },
];
for (const c of cases) {
  t.test(c.p, async (t) => {
    if (c.err) return void t.throws(() => expandHostPattern(c.p), c.err);
    const r = expandHostPattern(c.p);
    if (c.hosts) t.strictSame(r.hosts, c.hosts);
    if (c.count) t.equal(r.hosts.length, c.count);
    if (c.first) t.equal(r.hosts[0], c.first);
    if (c.last) t.equal(r.hosts.at(-1), c.last);
    t.equal(r.port, c.port);
  });
}
