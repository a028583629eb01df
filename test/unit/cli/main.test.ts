import t from 'tap';
import { runCli } from '../../helpers/cli.ts';

const run = (...args: string[]) => runCli(args);

t.test('top-level help lists every command of PRODUCT.md', async (t) => {
  const r = await run('--help');
  t.equal(r.code, 0);
  for (const cmd of ['audit', 'fix', 'migrate', 'lab', 'inventory']) t.match(r.out, new RegExp(`\\n  ${cmd}\\b`));
});

const commonFlags = ['--inventory', '--limit', '--format', '--output', '--forks', '--timeout', '--verbose'];
const cases: Array<{ argv: string[]; flags: string[] }> = [
  { argv: ['audit'], flags: [...commonFlags, '--check'] },
  { argv: ['fix'], flags: [...commonFlags, '--check', '--yes'] },
  { argv: ['migrate', 'explain'], flags: [...commonFlags, '--file', '--mappings', '--macros'] },
  { argv: ['migrate', 'jobs'], flags: commonFlags },
  { argv: ['migrate', 'dashboards'], flags: commonFlags },
  { argv: ['lab', 'up'], flags: ['--dir', '--scenario'] },
  { argv: ['lab', 'status'], flags: ['--dir'] },
  { argv: ['lab', 'down'], flags: ['--dir'] },
  { argv: ['inventory'], flags: [...commonFlags, '--list', '--graph', '--host'] },
];
for (const c of cases) {
  t.test(`${c.argv.join(' ')} --help lists its options`, async (t) => {
    const r = await run(...c.argv, '--help');
    t.equal(r.code, 0);
    for (const f of c.flags) t.match(r.out, f);
  });
}

t.test('usage errors exit 2 with a message', async (t) => {
  for (const argv of [['audit', '--bogus'], ['nosuch'], ['audit', '--forks', '0'], ['audit', '--format', 'xml'], []]) {
    const r = await run(...argv);
    t.equal(r.code, 2, argv.join(' '));
    t.not(r.err, '', `${argv.join(' ')} says why`);
  }
});
