/** serve's turns for password checks: per client address, the trusted first, guessers last, every memory bounded. */
import t from 'tap';
import { clientOf, fairTurns } from '../../../src/serve/turns.ts';

/** Checks that end when the test says: each resolves to the answer given at its start. */
function held() {
  const started: string[] = [];
  const ends: Array<() => void> = [];
  const check = (name: string, ok: boolean) => () =>
    new Promise<boolean>((resolve) => {
      started.push(name);
      ends.push(() => resolve(ok));
    });
  const endAll = async (): Promise<void> => {
    for (const end of ends.splice(0)) end();
    // the ended checks' continuations start the next ones
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return { started, check, endAll };
}

t.test('the client of an address: IPv4 itself, IPv4-mapped as IPv4, IPv6 by its /64', async (t) => {
  t.equal(clientOf('127.0.0.2'), '127.0.0.2');
  t.equal(clientOf('::ffff:10.1.2.3'), '10.1.2.3');
  t.equal(clientOf('2001:db8:0:1::5'), '2001:db8:0:1::/64');
  t.equal(clientOf('2001:db8:0:1:ffff:ffff:ffff:1'), '2001:db8:0:1::/64', 'one /64 is one client');
  t.equal(clientOf('2001:0db8::1'), '2001:db8:0:0::/64');
  t.equal(clientOf('::1'), '0:0:0:0::/64');
  t.equal(clientOf('fe80::1%eth0'), 'fe80:0:0:0::/64');
  t.equal(clientOf(undefined), '');
});

t.test('a client that was right goes before a new one, a new one before a guesser', async (t) => {
  const turns = fairTurns({ atOnce: 1, perClient: 4, waiting: 16, known: 16 });
  const h = held();
  // 10.0.0.1 proves itself; 10.0.0.2 guesses wrong
  const first = [turns.take('10.0.0.1', h.check('good', true)), turns.take('10.0.0.2', h.check('g0', false))];
  await h.endAll();
  await h.endAll();
  t.same(await Promise.all(first), [true, false]);
  h.started.length = 0;
  const blocker = turns.take('10.0.0.9', h.check('blocker', false));
  const later = [
    turns.take('10.0.0.2', h.check('g1', false)),
    turns.take('10.0.0.3', h.check('new', true)),
    turns.take('10.0.0.1', h.check('good again', true)),
  ];
  for (let i = 0; i < 4; i++) await h.endAll();
  await blocker;
  t.same(h.started, ['blocker', 'good again', 'new', 'g1']);
  t.same(await Promise.all(later), [false, true, true]);
});

t.test('a guesser’s waits are bounded per client, and give way to another client when all are full', async (t) => {
  const turns = fairTurns({ atOnce: 1, perClient: 3, waiting: 4, known: 16 });
  const h = held();
  const g = turns.take('10.0.0.2', h.check('g-first', false));
  await h.endAll();
  t.equal(await g, false);
  // the guesser is known to fail now: its waits are the first to go
  const running = turns.take('10.0.0.2', h.check('g-running', false));
  const waits = [1, 2, 3, 4].map((i) => turns.take('10.0.0.2', h.check(`g${i}`, false)));
  t.equal(await waits[3], false, 'a fourth wait of one client is refused at once');
  const others = [turns.take('10.0.0.4', h.check('a', true)), turns.take('10.0.0.5', h.check('b', true))];
  t.equal(await waits[2], false, 'the guesser’s newest wait gave its place');
  for (let i = 0; i < 6; i++) await h.endAll();
  t.same(await Promise.all(others), [true, true]);
  await running;
  t.same(h.started.slice(0, 4), ['g-first', 'g-running', 'a', 'b'], 'the others went before the guesser’s waits');
});

t.test('a client rotating over many addresses: what is remembered of clients stays bounded', async (t) => {
  const limits = { atOnce: 2, perClient: 2, waiting: 64, known: 128 };
  const turns = fairTurns(limits);
  let most = 0;
  const all: Array<Promise<boolean>> = [];
  for (let i = 0; i < 5000; i++) {
    all.push(turns.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, async () => false));
    most = Math.max(most, turns.remembered());
  }
  t.same(new Set(await Promise.all(all)), new Set([false]));
  t.ok(most <= limits.waiting + 2 * limits.known, `at most ${most} clients remembered at once`);
  t.ok(turns.remembered() <= 2 * limits.known);
});
