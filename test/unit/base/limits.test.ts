/** SMDOCTOR_MAX_FILE_MIB: a whole number of MiB in a range, else exit 2 saying the range, before anything runs. */
import t from 'tap';
import { join } from 'node:path';
import { DEFAULT_MAX_FILE_BYTES, maxFileBytes, maxOutputBytes } from '../../../src/base/limits.ts';
import { runCli } from '../../helpers/cli.ts';

const MIB = 1024 * 1024;

t.test('whole numbers from 1 to 256 set the limit; unset or empty keeps 16 MiB', async (t) => {
  for (const [value, bytes] of [
    [undefined, DEFAULT_MAX_FILE_BYTES],
    ['', DEFAULT_MAX_FILE_BYTES],
    ['1', MIB],
    [' 64 ', 64 * MIB],
    ['256', 256 * MIB],
  ] as const)
    t.equal(maxFileBytes(value === undefined ? {} : { SMDOCTOR_MAX_FILE_MIB: value }), bytes, `${value}`);
  t.equal(maxOutputBytes({ SMDOCTOR_MAX_FILE_MIB: '2' }), 8 * MIB);
});

// each was taken before, and 1e15 became `head -c 1.048576e+21`
const BAD = ['1e15', '0', '-4', '0.5', '257', '99999', 'Infinity', 'NaN', '0x10', '16MiB', '1_000'];

t.test('anything else is exit 2 naming the variable and the range, before the inventory is read', async (t) => {
  const dir = t.testdir({ 'inv.yml': 'all:\n  hosts:\n    h1:\n      ansible_host: 127.0.0.1\n' });
  for (const value of BAD) {
    t.throws(() => maxFileBytes({ SMDOCTOR_MAX_FILE_MIB: value }), /from 1 to 256/, value);
    const r = await runCli(['inventory', '--list', '-i', join(dir, 'inv.yml')], {
      env: { SMDOCTOR_MAX_FILE_MIB: value },
    });
    t.equal(r.code, 2, `${value}: exit 2`);
    t.match(r.err, `SMDOCTOR_MAX_FILE_MIB=${value}: give a whole number of MiB from 1 to 256`, value);
    t.equal(r.out, '', `${value}: nothing listed`);
  }
});

t.test('a value with terminal controls is printed with them made visible, cut short', async (t) => {
  const dir = t.testdir({ 'inv.yml': 'all:\n  hosts:\n    h1:\n      ansible_host: 127.0.0.1\n' });
  const value = `1\x1b[2J\x1b]0;owned\x07\u202e${'9'.repeat(100)}`;
  const r = await runCli(['inventory', '--list', '-i', join(dir, 'inv.yml')], {
    env: { SMDOCTOR_MAX_FILE_MIB: value },
  });
  t.equal(r.code, 2);
  t.match(r.err, 'SMDOCTOR_MAX_FILE_MIB=1\\x1b[2J\\x1b]0;owned\\x07\\u202e9');
  t.notMatch(r.err, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
  t.notMatch(r.err, '9'.repeat(40), 'the value is cut short');
});
