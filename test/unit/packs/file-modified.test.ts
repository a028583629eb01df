/** file_modified's shell lines: the folder resolved as the `file` source resolves it, so a symlink out is refused. */
import t from 'tap';
import { needsOf, packBatchLines } from '../../../src/packs/index.ts';
import type { Pack, PackSource } from '../../../src/model/pack.ts';
import { check } from '../../helpers/packs/facts.ts';

const place = { engine: 'opensearch', searchHome: '/srv/os', webHome: '/srv/web' };
const linesOf = (...sources: PackSource[]) => {
  const pack: Pack = {
    name: 'p',
    origin: 'x',
    checks: sources.map((s) => check(s, [{ kind: 'present', value: true }])),
  };
  return packBatchLines(needsOf([pack]), place as never).join('\n');
};

t.test('file_modified alone: the homes resolved, and each path checked by `under` before stat', async (t) => {
  const text = linesOf({ kind: 'file_modified', path: 'a/b' }, { kind: 'file_modified', path: 'config/x y' });
  t.match(text, /^HR=\$\(cd -P -- "\$H" .*CR=\$\(cd -P -- "\$C"/m, 'the homes resolved although no file is read');
  t.match(text, /^under\(\) \{/m, 'the one resolution the file source uses');
  t.match(text, /under "\$HR" "\$H"\/'a\/b'; if \[ \$\? = 2 \]; then printf '%s OUT k file_modified 0\\n'/);
  t.match(text, /under "\$CR" "\$C"\/'x y'; if \[ \$\? = 2 \]; then printf '%s OUT k file_modified 1\\n'/);
  t.equal(text.match(/^under\(\)/gm)?.length, 1, 'defined once');
});

t.test('a file and a file_modified: `inside` and `under` share one definition', async (t) => {
  const text = linesOf({ kind: 'file', path: 'a', match: 'x' }, { kind: 'file_modified', path: 'a' });
  t.equal(text.match(/^under\(\)/gm)?.length, 1);
  t.match(text, /^inside\(\) \{ under "\$2" "\$3";/m);
});
