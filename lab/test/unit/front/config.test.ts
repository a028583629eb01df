import t from 'tap';
import { frontChoice, FRONT_ABOVE_HOSTS } from '../../../src/front/config.ts';

t.test('the front runs when asked, when a round-trip time is set, and above 250 hosts', async (t) => {
  t.same(frontChoice({}, 20), { front: false, rttMs: 0 }, 'a small lab keeps one sshd per host');
  t.same(frontChoice({ SMDOCTOR_LAB_FRONT: '1' }, 20), { front: true, rttMs: 0 });
  t.same(frontChoice({ SMDOCTOR_LAB_RTT_MS: '50' }, 20), { front: true, rttMs: 50 }, 'a delay needs the front');
  t.same(frontChoice({}, FRONT_ABOVE_HOSTS + 1), { front: true, rttMs: 0 });
  t.throws(() => frontChoice({ SMDOCTOR_LAB_RTT_MS: 'fast' }, 20), /SMDOCTOR_LAB_RTT_MS must be 0\.\.10000/);
  t.throws(() => frontChoice({ SMDOCTOR_LAB_FRONT: '0' }, 1000), /cannot serve/);
});
