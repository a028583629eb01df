import t from 'tap';
import { PassThrough } from 'node:stream';
import { progressRenderer } from '../../../src/cli/progress.ts';

const stream = (tty: boolean) => {
  const s = Object.assign(new PassThrough(), { isTTY: tty });
  let out = '';
  s.on('data', (d) => (out += d));
  return { s, out: () => out };
};

t.test('progress is rewritten in place on a terminal and cleared after; nothing otherwise', async (t) => {
  const tty = stream(true);
  const p = progressRenderer(tty.s);
  p.update(0, 3);
  p.update(2, 3);
  p.clear();
  p.clear();
  t.match(tty.out(), /^\r\x1b\[2Kgathering 0\/3 hosts…\r\x1b\[2Kgathering 2\/3 hosts…\r\x1b\[2K$/);
  const pipe = stream(false);
  const q = progressRenderer(pipe.s);
  q.update(1, 3);
  q.clear();
  t.equal(pipe.out(), '');
});
