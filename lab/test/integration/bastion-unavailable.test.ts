/** lab up --bastion without network namespaces: it says so, exits 2 and leaves nothing behind. No lab starts. */
import t from 'tap';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const bin = fileURLToPath(new URL('../../../bin/smdoctor.js', import.meta.url));
// env -i: a plain environment, without the test runner's hooks (NODE_OPTIONS), which would write where nobody may not
const plainEnv = (extra: Record<string, string>) => ({
  env: { PATH: process.env.PATH ?? '', ...extra },
  extendEnv: false,
  reject: false,
});
const netnsList = async () => (await execa('ip', ['netns', 'list'])).stdout;

t.test('not root: exit 2, the reason named', async (t) => {
  const dir = t.testdir();
  chmodSync(dir, 0o777);
  // the real CLI as the unprivileged user nobody
  const r = await execa(
    'setpriv',
    [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      'env',
      '-i',
      `PATH=${process.env.PATH}`,
      `HOME=${dir}`,
      process.execPath,
      bin,
      'lab',
      'up',
      '--bastion',
      '--dir',
      join(dir, 'lab'),
    ],
    plainEnv({ HOME: dir }),
  );
  t.equal(r.exitCode, 2, r.stderr);
  t.match(r.stderr, /lab up --bastion needs network namespaces, which need root/);
  t.notOk(existsSync(join(dir, 'lab', 'netns.json')), 'nothing recorded');
});

t.test('root, but "ip netns add" fails: exit 2 with ip\'s message; nothing left', async (t) => {
  const dir = t.testdir({ fakebin: {} });
  // an ip that refuses namespaces, as in a container without the privilege, and notes each name it was asked for;
  // everything else is the real ip
  const fake = join(dir, 'fakebin', 'ip');
  const tried = join(dir, 'tried');
  writeFileSync(
    fake,
    `#!/bin/sh\n[ "$1 $2" = "netns add" ] && { echo "$3" >> '${tried}'; echo "mount --make-shared /run/netns failed: Operation not permitted" >&2; exit 1; }\nexec /usr/sbin/ip "$@"\n`,
  );
  chmodSync(fake, 0o755);
  const r = await execa(
    'env',
    [
      '-i',
      `PATH=${join(dir, 'fakebin')}:${process.env.PATH}`,
      process.execPath,
      bin,
      'lab',
      'up',
      '--bastion',
      '--dir',
      join(dir, 'lab'),
    ],
    plainEnv({ PATH: `${join(dir, 'fakebin')}:${process.env.PATH}` }),
  );
  t.equal(r.exitCode, 2, r.stderr);
  t.match(r.stderr, /"ip netns add" failed: mount --make-shared \/run\/netns failed: Operation not permitted/);
  t.notOk(existsSync(join(dir, 'lab', 'netns.json')), 'the record of a net that was never made is gone');
  // other test files may add namespaces meanwhile: what counts is that none of this run's names exists
  const asked = readFileSync(tried, 'utf8').split('\n').filter(Boolean);
  t.ok(asked.length > 0, 'lab up asked for a namespace');
  const now = (await netnsList()).split('\n').map((l) => l.split(' ')[0]);
  t.same(
    asked.filter((n) => now.includes(n)),
    [],
    'no namespace added',
  );
});
