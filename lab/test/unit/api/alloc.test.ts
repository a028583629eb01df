/** The lab's allocator on a stepped clock: what a rolling restart must protect against, and what it must do. */
import t from 'tap';
import { ALLOCATION_ENABLE, IndexStore } from '../../../src/api/store.ts';
import { indexHealth } from '../../../src/api/shards.ts';

function store(): { s: IndexStore; log: string[]; clock: { t: number } } {
  const clock = { t: 1_000_000 };
  const s = IndexStore.fromScenario([
    { name: 'logs', settings: { number_of_replicas: '1' } },
    { name: 'limits', settings: { auto_expand_replicas: '0-all' } },
  ]);
  s.now = () => clock.t;
  s.timing = { delayedTimeoutMs: 200, recoveryDelayMs: 300, newCopyDelayMs: 0 };
  const log: string[] = [];
  s.onAllocation = (l) => log.push(l);
  s.reallocate(['a', 'b', 'c']);
  t.teardown(() => s.close());
  return { s, log, clock };
}

const placed = (s: IndexStore, index: string) =>
  s
    .get(index)!
    .copies.map((c) => `${c.primary ? 'p' : 'r'}:${c.node ?? '-'}:${c.state}`)
    .sort();

t.test('allocation all: the lost copy waits delayed_timeout, then relocates elsewhere (logged)', async (t) => {
  const { s, log, clock } = store();
  t.same(placed(s, 'logs'), ['p:a:STARTED', 'r:b:STARTED']);
  s.reallocate(['b', 'c']);
  t.same(placed(s, 'logs'), ['p:b:STARTED', 'r:-:UNASSIGNED'], "the replica on b is promoted; a's copy is unassigned");
  t.match(log, [/promote \[logs\]\[0\] replica on b to primary \(a left\)/]);
  t.equal(indexHealth(s.get('logs')!), 'yellow');
  clock.t += 150;
  s.allocate();
  t.same(placed(s, 'logs'), ['p:b:STARTED', 'r:-:UNASSIGNED'], 'still delayed');
  clock.t += 100;
  s.allocate();
  t.same(placed(s, 'logs'), ['p:b:STARTED', 'r:c:INITIALIZING'], 'relocated to the node without a copy');
  t.match(log.at(-1), /relocate \[logs\]\[0\] replica of a .* to c/);
  clock.t += 300;
  s.allocate();
  t.equal(indexHealth(s.get('logs')!), 'green');
});

t.test(
  'allocation primaries: nothing relocates; the returning node recovers only once allocation is back',
  async (t) => {
    const { s, log, clock } = store();
    s.clusterSettings.persistent[ALLOCATION_ENABLE] = 'primaries';
    s.reallocate(['b', 'c']);
    clock.t += 10_000;
    s.allocate();
    t.same(placed(s, 'logs'), ['p:b:STARTED', 'r:-:UNASSIGNED'], 'no relocation however long a is away');
    s.reallocate(['a', 'b', 'c']);
    t.same(placed(s, 'logs'), ['p:b:STARTED', 'r:-:UNASSIGNED'], 'a replica is not allocated under primaries');
    t.equal(indexHealth(s.get('limits')!), 'yellow', 'the auto-expanded copy for a waits too');
    delete s.clusterSettings.persistent[ALLOCATION_ENABLE];
    s.allocate();
    t.same(placed(s, 'logs'), ['p:b:STARTED', 'r:a:INITIALIZING'], 'recovers on a, where its data is');
    clock.t += 300;
    s.allocate();
    t.equal(indexHealth(s.get('logs')!), 'green');
    t.equal(indexHealth(s.get('limits')!), 'green');
    t.notOk(
      log.some((l) => l.startsWith('relocate')),
      log.join('\n'),
    );
  },
);

t.test('a primary with no other copy: red until its node comes back, then initializing, then green', async (t) => {
  const { s, clock } = store();
  s.putSettings('logs', { number_of_replicas: '0' });
  t.same(placed(s, 'logs'), ['p:a:STARTED']);
  s.reallocate(['b', 'c']);
  clock.t += 10_000;
  s.allocate();
  t.equal(indexHealth(s.get('logs')!), 'red', 'only a holds the data');
  s.reallocate(['a', 'b', 'c']);
  t.same(placed(s, 'logs'), ['p:a:INITIALIZING']);
  t.equal(indexHealth(s.get('logs')!), 'red');
  clock.t += 300;
  s.allocate();
  t.equal(indexHealth(s.get('logs')!), 'green');
});

t.test('cluster settings survive a save and load', async (t) => {
  const { s } = store();
  s.clusterSettings.transient[ALLOCATION_ENABLE] = 'none';
  const back = IndexStore.fromJSON(JSON.parse(JSON.stringify(s.toJSON())));
  t.equal(back.allocationEnable(), 'none');
});

t.test('a new replica recovers from its primary for newCopyDelayMs: initializing (yellow), then started', async (t) => {
  const { s, clock } = store();
  s.timing = { ...s.timing, newCopyDelayMs: 2000 };
  s.create('.smdoctor-lease', { index: { number_of_shards: 1, auto_expand_replicas: '0-1' } });
  t.same(placed(s, '.smdoctor-lease'), ['p:a:STARTED', 'r:b:INITIALIZING'], 'the empty primary starts at once');
  t.equal(indexHealth(s.get('.smdoctor-lease')!), 'yellow');
  clock.t += 1999;
  s.allocate();
  t.equal(indexHealth(s.get('.smdoctor-lease')!), 'yellow', 'still copying');
  clock.t += 1;
  s.allocate();
  t.same(placed(s, '.smdoctor-lease'), ['p:a:STARTED', 'r:b:STARTED']);
  // one more replica of an existing index recovers the same way
  s.putSettings('logs', { number_of_replicas: '2' });
  t.same(placed(s, 'logs'), ['p:a:STARTED', 'r:b:STARTED', 'r:c:INITIALIZING']);
  clock.t += 2000;
  s.allocate();
  t.equal(indexHealth(s.get('logs')!), 'green');
});

t.test('by default (newCopyDelayMs 0) a new index is green at once, as the other lab tests expect', async (t) => {
  const { s } = store();
  s.create('fresh', { index: { number_of_replicas: 1 } });
  t.equal(indexHealth(s.get('fresh')!), 'green');
});
