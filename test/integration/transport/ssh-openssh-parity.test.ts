/**
 * ssh_config read as OpenSSH reads it, with the real `ssh -G` as judge: StrictHostKeyChecking's spellings, relative
 * paths, every UserKnownHostsFile, and the subset parser's defaults; then real configs from public repositories
 * (test/fixtures/real-world/ssh/cases.json names each one's repository, path and commit).
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { accessOf } from '../../../src/reach/access.ts';
import { reachHost } from '../../../src/reach/index.ts';
import { interpretSsh, policyOf } from '../../../src/reach/ssh-options.ts';
import { parseSshG, subsetResolve, type SshOptionMap } from '../../../src/transport/ssh-config.ts';
import type { HostKeyPolicy } from '../../../src/model/index.ts';
import { sshConfigInventory } from '../../helpers/inventory.ts';

const dir = mkdtempSync(join(tmpdir(), 'smdoctor-openssh-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const home = join(dir, 'home');
mkdirSync(join(home, '.ssh'), { recursive: true });
const env = { HOME: home, PATH: process.env.PATH, USER: 'root' };
const noSsh = { ...env, PATH: join(dir, 'empty-path') };
let n = 0;

/** A config file holding `text`, and what `ssh -G -F` makes of `host` (null when ssh refuses the file). */
function config(text: string, host = 'x'): { file: string; real: SshOptionMap | null; error: string } {
  const file = join(dir, `config-${++n}`);
  writeFileSync(file, text);
  try {
    const out = execFileSync('ssh', ['-G', '-F', file, '--', host], { encoding: 'utf8', stdio: 'pipe' });
    // ssh expands ~ with the account's home, smdoctor with $HOME: the test's home stands for both
    return { file, real: parseSshG(out.replaceAll(userInfo().homedir, home)), error: '' };
  } catch (e) {
    return { file, real: null, error: String((e as { stderr?: string }).stderr) };
  }
}

const reach = (file: string, host: string, e: NodeJS.ProcessEnv, cwd?: string) => {
  return reachHost(sshConfigInventory(dir, file, { [host]: {} }), host, e, cwd ? { cwd } : {});
};

t.test('StrictHostKeyChecking: every spelling ssh accepts, as ssh -G reads it', async (t) => {
  const table: Array<[string, HostKeyPolicy]> = [
    ['yes', 'strict'],
    ['YES', 'strict'],
    ['true', 'strict'],
    ['True', 'strict'],
    ['ask', 'strict'],
    ['no', 'off'],
    ['No', 'off'],
    ['false', 'off'],
    ['FALSE', 'off'],
    ['off', 'off'],
    ['accept-new', 'accept-new'],
    ['Accept-New', 'accept-new'],
  ];
  for (const [spelling, want] of table) {
    const { file, real, error } = config(`Host x\n  StrictHostKeyChecking ${spelling}\n`);
    t.ok(real, `ssh accepts "${spelling}" ${error}`);
    const printed = real!.get('stricthostkeychecking')![0]!;
    t.equal(policyOf(printed), want, `ssh -G prints "${printed}" for "${spelling}"`);
    t.equal(reach(file, 'x', env).hostKeyChecking, want, `${spelling}: through ssh -G`);
    t.equal(reach(file, 'x', noSsh).hostKeyChecking, want, `${spelling}: through the subset parser`);
  }
  const { file } = config('Host x\n  StrictHostKeyChecking maybe\n');
  t.equal(reach(file, 'x', noSsh).hostKeyChecking, 'strict', 'a spelling ssh refuses changes nothing');
});

t.test(
  'relative IdentityFile and UserKnownHostsFile are opened from the working directory, as ssh opens them',
  async (t) => {
    const cwd = join(dir, 'work');
    mkdirSync(join(cwd, 'keys'), { recursive: true });
    writeFileSync(join(cwd, 'keys', 'id'), 'placeholder');
    const { file, real } = config('Host x\n  IdentityFile keys/id\n  UserKnownHostsFile ./known_hosts\n');
    t.same(real!.get('identityfile'), ['keys/id'], 'ssh -G leaves them relative');
    t.same(real!.get('userknownhostsfile'), ['./known_hosts']);
    for (const e of [env, noSsh]) {
      const h = reach(file, 'x', e, cwd);
      t.same(h.ssh!.identityFiles, [join(cwd, 'keys', 'id')], 'the key from the working directory');
      t.equal(h.knownHostsFile, join(cwd, 'known_hosts'), 'not /known_hosts');
    }
    t.equal(accessOf({}, cwd).cwd, cwd, "the command's working directory is passed down");
  },
);

t.test('every UserKnownHostsFile is read; the first is the one written', async (t) => {
  const table: Array<[string, string, string[]]> = [
    [
      '~/.ssh/known_hosts ~/.ssh/known_hosts2 ~/.ssh/known_hosts.d/x',
      join(home, '.ssh/known_hosts'),
      [join(home, '.ssh/known_hosts2'), join(home, '.ssh/known_hosts.d/x')],
    ],
    ['/dev/null ~/.ssh/known_hosts', '/dev/null', [join(home, '.ssh/known_hosts')]],
    ['=/dev/null', '/dev/null', []],
  ];
  for (const [value, first, also] of table) {
    const { file, real } = config(`Host x\n  UserKnownHostsFile${value.startsWith('=') ? '' : ' '}${value}\n`);
    t.same(interpretSsh(real!, { home, cwd: dir, dest: 'x' }).knownHostsFiles, [first, ...also], `ssh -G: ${value}`);
    for (const e of [env, noSsh]) {
      const h = reach(file, 'x', e);
      // ssh -G expands ~ with the account's home, not $HOME
      const ours = (f: string) => f.replace(userInfo().homedir, home);
      t.equal(ours(h.knownHostsFile), first, value);
      t.same((h.knownHostsAlso ?? []).map(ours), also, value);
    }
  }
});

t.test('the subset parser without ssh: the defaults and refusals of ssh -G', async (t) => {
  const table: Array<[string, string, string[]]> = [
    ['no IdentityFile: the seven defaults, in order', 'Host x\n  User u\n', ['identityfile']],
    [
      'a repeated IdentityFile counts once',
      'Host x\n  IdentityFile ~/.ssh/a\n  IdentityFile ~/.ssh/b\nHost *\n  IdentityFile ~/.ssh/a\n',
      ['identityfile'],
    ],
    ['BatchMode yes: a keepalive every 300 s', 'Host x\n  BatchMode yes\n', ['serveraliveinterval']],
    [
      'BatchMode yes with its own keepalive',
      'Host x\n  BatchMode yes\n  ServerAliveInterval 5\n',
      ['serveraliveinterval'],
    ],
    ['the host name lowercased', 'Host x\n  HostName Web-1.Example\n', ['hostname']],
    [
      'UseKeychain under IgnoreUnknown',
      'IgnoreUnknown UseKeychain,AddKeysToAgent\nHost x\n  UseKeychain yes\n',
      ['user'],
    ],
    ['IgnoreUnknown by pattern', 'IgnoreUnknown Use*\nHost *\n  UseKeychain yes\n', ['user']],
  ];
  for (const [what, text, keys] of table) {
    const { file, real, error } = config(text);
    t.ok(real, `${what}: ssh reads it ${error}`);
    const sub = subsetResolve({ dest: 'x', configFile: file, args: [], env });
    for (const k of keys) t.same(sub.get(k), real!.get(k), `${what}: ${k}`);
  }
  for (const text of ['Host *\n  UseKeychain yes\n', 'Host other\n  UseKeychain yes\nIgnoreUnknown UseKeychain\n']) {
    const { file, real, error } = config(text);
    t.equal(real, null, 'ssh refuses the file');
    t.match(error, /Bad configuration option: usekeychain/);
    t.throws(() => subsetResolve({ dest: 'x', configFile: file, args: [], env }), {
      code: 'INPUT',
      message: new RegExp(`^${file}: line \\d: Bad configuration option: usekeychain .*IgnoreUnknown UseKeychain`),
    });
  }
});

t.test('the subset parser refuses and reads as ssh -G: none in any case, bad ports, no-break spaces', async (t) => {
  // read as ssh reads them
  const table: Array<[string, string, string[]]> = [
    [
      'ProxyCommand None (capital N) is no proxy',
      'Host x\n  ProxyCommand None\nHost *\n  ProxyCommand nc %h %p\n',
      ['proxycommand'],
    ],
    ['ProxyCommand NONE', 'Host x\n  ProxyCommand NONE\n', ['proxycommand']],
    ['ProxyJump None', 'Host x\n  ProxyJump None\n', ['proxyjump']],
    ['Port ssh: the service name', 'Host x\n  Port ssh\n', ['port']],
    ['Port 022: decimal', 'Host x\n  Port 022\n', ['port']],
    ['Port 65535', 'Host x\n  Port 65535\n', ['port']],
  ];
  for (const [what, text, keys] of table) {
    const { file, real, error } = config(text);
    t.ok(real, `${what}: ssh reads it ${error}`);
    const sub = subsetResolve({ dest: 'x', configFile: file, args: [], env });
    for (const k of keys) t.same(sub.get(k), real!.get(k), `${what}: ${k}`);
  }
  // refused by ssh, even in a block that does not apply
  const refused: Array<[string, string, RegExp]> = [
    ['Port [REDACTED]', 'Host x\n  Port [REDACTED]\n', /Bad port/],
    ['Port 0', 'Host x\n  Port 0\n', /Bad port/],
    ['Port 65536', 'Host x\n  Port 65536\n', /Bad port/],
    ['a bad Port in a block for another host', 'Host other\n  Port [REDACTED]\nHost x\n  User u\n', /Bad port/],
    ['a Port followed by a no-break space', 'Host x\n  Port 2222\u00a0\n', /Bad port/],
    ['a line indented with no-break spaces', 'Host x\n\u00a0\u00a0Port 2222\n', /Bad configuration option/],
    ['a keyword and value split by a no-break space', 'Host x\n  User\u00a0bob\n', /./],
    [
      'no-break spaces in a block for another host',
      'Host other\n\u00a0 User bob\nHost x\n  User u\n',
      /Bad configuration option/,
    ],
  ];
  for (const [what, text, subsetSays] of refused) {
    const { file, real, error } = config(text);
    t.equal(real, null, `${what}: ssh refuses the file`);
    t.throws(
      () => subsetResolve({ dest: 'x', configFile: file, args: [], env }),
      { code: 'INPUT', message: subsetSays },
      `${what}: so does the subset parser (ssh: ${error.split('\n')[0]})`,
    );
  }
});

interface RealCase {
  name: string;
  repo: string;
  commit: string;
  config: string;
  hosts: string[];
}
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'real-world', 'ssh');
const cases = JSON.parse(readFileSync(join(FIXTURES, 'cases.json'), 'utf8')) as RealCase[];

t.test('real configs: the subset parser and the ssh path read them as ssh -G does', async (t) => {
  for (const c of cases) {
    // the config's folder laid as ~/.ssh, as the corpus' answers were made
    const h = join(dir, c.name);
    cpSync(join(FIXTURES, c.name, dirname(c.config)), join(h, '.ssh'), { recursive: true });
    const file = join(h, '.ssh', c.config.split('/').pop()!);
    const e = { ...env, HOME: h };
    for (const host of c.hosts) {
      const what = `${c.repo}@${c.commit.slice(0, 8)} ${c.config}: ${host}`;
      let real: SshOptionMap | null = null;
      let error = '';
      try {
        const out = execFileSync('ssh', ['-G', '-F', file, '--', host], { encoding: 'utf8', stdio: 'pipe' });
        real = parseSshG(out.replaceAll(userInfo().homedir, h));
      } catch (err) {
        error = String((err as { stderr?: string }).stderr);
      }
      if (!real) {
        t.throws(
          () => subsetResolve({ dest: host, configFile: file, args: [], env: e }),
          { code: 'INPUT' },
          `${what}: both refuse (${error.split('\n')[0]})`,
        );
        continue;
      }
      const o = { home: h, cwd: dir, dest: host };
      const truth = interpretSsh(real, o);
      t.not(truth.hostKeyChecking, undefined, `${what}: StrictHostKeyChecking read`);
      t.same(interpretSsh(subsetResolve({ dest: host, configFile: file, args: [], env: e }), o), truth, what);
    }
  }
});
