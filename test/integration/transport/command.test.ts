import t from 'tap';
import { execa } from 'execa';
import {
  parseMarked,
  planCommand,
  shQuote,
  shWord,
  sudoProbeCommand,
  withDeadline,
} from '../../../src/transport/command.ts';

const awkward = [
  'plain',
  '',
  "it's",
  "'",
  "''",
  'a b  c',
  '$HOME `id` $(id) \\n',
  '*',
  'line1\nline2',
  'ünï "q"',
  '-n',
];

t.test('shQuote round-trips through a real sh', async (t) => {
  for (const s of awkward) {
    const r = await execa('sh', ['-c', `printf '%s' ${shQuote(s)}`], { stripFinalNewline: false });
    t.equal(r.stdout, s, JSON.stringify(s));
  }
});

t.test('shQuote output is single-quoted with escaped quotes', async (t) => {
  const cases: Array<[string, string]> = [
    ['abc', "'abc'"],
    ["it's", `'it'\\''s'`],
    ['', "''"],
  ];
  for (const [input, want] of cases) t.equal(shQuote(input), want, input);
});

t.test('planCommand applies the sudo rules', async (t) => {
  const cases: Array<{
    name: string;
    opts: { privileged?: boolean; asUser?: string };
    become: boolean;
    user: string;
    want: string;
    sudoUser: string | null;
  }> = [
    { name: 'plain', opts: {}, become: false, user: 'ops', want: 'cat /x', sudoUser: null },
    {
      name: 'privileged without become',
      opts: { privileged: true },
      become: false,
      user: 'ops',
      want: 'cat /x',
      sudoUser: null,
    },
    {
      name: 'privileged with become',
      opts: { privileged: true },
      become: true,
      user: 'ops',
      want: `sudo -n sh -c 'cat /x'`,
      sudoUser: 'root',
    },
    { name: 'not privileged with become', opts: {}, become: true, user: 'ops', want: 'cat /x', sudoUser: null },
    {
      name: 'asUser other',
      opts: { asUser: 'opensearch' },
      become: false,
      user: 'ops',
      want: `sudo -n -u 'opensearch' sh -c 'cat /x'`,
      sudoUser: 'opensearch',
    },
    {
      name: 'asUser other with become',
      opts: { asUser: 'opensearch', privileged: true },
      become: true,
      user: 'ops',
      want: `sudo -n -u 'opensearch' sh -c 'cat /x'`,
      sudoUser: 'opensearch',
    },
    {
      name: 'asUser is login user',
      opts: { asUser: 'ops' },
      become: true,
      user: 'ops',
      want: 'cat /x',
      sudoUser: null,
    },
    {
      name: 'asUser is login user, privileged',
      opts: { asUser: 'ops', privileged: true },
      become: true,
      user: 'ops',
      want: 'cat /x',
      sudoUser: null,
    },
  ];
  for (const c of cases) {
    t.same(
      planCommand('cat /x', c.opts, { user: c.user, become: c.become }),
      { command: c.want, sudoUser: c.sudoUser },
      c.name,
    );
  }
});

t.test('planCommand quotes the wrapped command so sh -c sees it unchanged', async (t) => {
  const cmd = `printf '%s|' "a b" 'c'"'"'d'`;
  const plan = planCommand(cmd, { privileged: true }, { user: 'ops', become: true });
  // Run what sudo would run (sh -c ARG) without sudo: the inner argument must be the original command.
  const inner = plan.command.replace(/^sudo -n /, '');
  const [a, b] = await Promise.all([execa('sh', ['-c', inner]), execa('sh', ['-c', cmd])]);
  t.equal(a.stdout, b.stdout);
  t.equal(a.stdout, "a b|c'd|");
});

t.test('sudoProbeCommand', async (t) => {
  t.equal(sudoProbeCommand('root'), 'sudo -n true');
  t.equal(sudoProbeCommand('opensearch'), `sudo -n -u 'opensearch' true`);
});

t.test('parseMarked', async (t) => {
  const cases: Array<[string, unknown]> = [
    ['N\n', { exists: false, content: null }],
    ['E\n', { exists: true, content: '' }],
    ['E\nabc\n', { exists: true, content: 'abc\n' }],
    ['E\nno newline', { exists: true, content: 'no newline' }],
    ['garbage', undefined],
    ['', undefined],
  ];
  for (const [out, want] of cases) t.same(parseMarked(Buffer.from(out)), want, JSON.stringify(out));
});

t.test('withDeadline: the host kills the command after the deadline, output passes through', async (t) => {
  t.equal(withDeadline('echo x', 0), 'echo x', 'no deadline');
  const quick = await execa('sh', ['-c', withDeadline(`printf '%s' "$(cat)"; exit 4`, 5)], {
    input: 'in put',
    reject: false,
  });
  t.match(quick, { exitCode: 4, stdout: 'in put' });
  const slow = await execa('sh', ['-c', withDeadline('sleep 30; echo never', 0.1)], { reject: false });
  t.ok(slow.signal === 'SIGKILL' || slow.exitCode === 137, 'killed with SIGKILL');
  t.equal(slow.stdout, '');
});

t.test('shWord: plain words as written, anything the shell would read quoted', async (t) => {
  const cases: Array<[string, string]> = [
    ['/app/opensearch/bin/opensearch-plugin', '/app/opensearch/bin/opensearch-plugin'],
    ['sm-job-scheduler', 'sm-job-scheduler'],
    ['jobscheduler.email.pass', 'jobscheduler.email.pass'],
    ['/opt/my search/bin/x', "'/opt/my search/bin/x'"],
    ['x;rm -rf /', "'x;rm -rf /'"],
    ['$(id)', "'$(id)'"],
    ["it's", "'it'\\''s'"],
    ['', "''"],
  ];
  for (const [input, want] of cases) {
    t.equal(shWord(input), want, input);
    const r = await execa('sh', ['-c', `printf '%s' ${shWord(input)}`]);
    t.equal(r.stdout, input, `${input}: one word, read back as written`);
  }
});
