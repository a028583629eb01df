/**
 * Finding a node's folders on this machine's real /proc, under dash, bash and BusyBox sh: processes this test starts
 * (their command line and environment as the engine's launchers write them), environment files and package folders
 * under a temporary root standing for `/`. What the command found is compared with what this process reads itself.
 */
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchCommand, batchPaths, parseBatch } from '../../../src/audit/batch.ts';
import { layoutProbe, parseLayout, type LayoutProbe } from '../../../src/audit/layout.ts';
import { parseEnviron } from '../../../src/audit/batch.ts';
import { readHost } from '../../../src/audit/gather-host.ts';
import { cfg } from '../../helpers/audit/fakes.ts';
import { fakeTransport } from '../../helpers/audit/local-sh.ts';
import { SHELLS as SHELL_LIST, runIn, type Shell } from '../../helpers/shells.ts';

// the helper's shells (dash, bash, BusyBox sh with GNU's tools and with its own), as [name, shell] pairs
const SHELLS = SHELL_LIST.map((sh) => [sh.name, sh] as const);

const run = async (shell: Shell, command: string) => {
  const r = await runIn(shell, command);
  if (r.code !== 0) throw new Error(`${shell.name}: ${r.stderr}`);
  return r.stdout;
};

async function layoutUnder(shell: Shell, probe: LayoutProbe) {
  const b = 'SMDOCTOR-layout';
  const out = parseBatch(await run(shell, batchCommand(batchPaths(probe), b)), b);
  return {
    layout: parseLayout(out.sections.find((s) => s.tag === 'layout')?.text ?? null),
    env: out.sections.find((s) => s.tag === 'env')?.text ?? null,
    webEnv: out.sections.find((s) => s.tag === 'webenv')?.text ?? null,
    engine: out.sections.find((s) => s.tag === 'engine')?.text ?? null,
  };
}

/** A process whose command line is the given words (a shell waiting on its stdin), once /proc shows it so. */
async function stand(t: Test, words: string[], env: Record<string, string>, marker: string) {
  const child = spawn('sh', ['-c', 'read _', ...words], { env, stdio: ['pipe', 'ignore', 'ignore'] });
  t.teardown(() => void child.stdin.end());
  const deadline = Date.now() + 30_000;
  while (!readFileSync(`/proc/${child.pid}/cmdline`, 'latin1').includes(marker)) {
    if (Date.now() > deadline) throw new Error('the stand-in process never showed its command line');
    await new Promise((r) => setTimeout(r, 20));
  }
  return child.pid!;
}

const engineWords = (home: string) => [
  'java',
  '-Xms1g',
  `-Dopensearch.path.home=${home}`,
  '-cp',
  `${home}/lib/*`,
  'org.opensearch.bootstrap.OpenSearch',
];

t.test('the engine process of the pid file: its environment names the config, its command line the home', async (t) => {
  const root = t.testdir({});
  const home = join(root, 'usr/share/opensearch');
  const conf = join(root, 'srv/conf dir');
  mkdirSync(conf, { recursive: true });
  writeFileSync(join(conf, 'opensearch.yml'), 'node.name: moved\n');
  const pid = await stand(t, engineWords(home), { OPENSEARCH_PATH_CONF: conf, NODE_ROLE: 'data' }, 'OpenSearch');
  writeFileSync(join(root, 'pid'), `${pid}\n`);
  // what this process itself reads of the stand-in
  const own = parseEnviron(readFileSync(`/proc/${pid}/environ`));
  for (const [name, shell] of SHELLS) {
    const got = await layoutUnder(shell, {
      engine: 'opensearch',
      searchHome: '/app/opensearch',
      webHome: '/app/opensearch-dashboards',
      enginePidFile: join(root, 'pid'),
      root,
    });
    t.match(
      got.layout,
      {
        engineProcess: { pid: String(pid), how: 'its pid file' },
        engineConfig: {
          path: own.OPENSEARCH_PATH_CONF,
          why: `the running process's OPENSEARCH_PATH_CONF (pid ${pid})`,
        },
        engineHome: { path: home, why: `the running process's command line (pid ${pid})` },
      },
      `${name}: found through the process`,
    );
    t.equal(got.engine, 'node.name: moved\n', `${name}: its config read where it is`);
    t.same(
      parseEnviron(Buffer.from(got.env ?? '', 'latin1')),
      own,
      `${name}: the environment as this process reads it`,
    );
  }
});

t.test('no pid file: the one process whose command line names the home, never another home', async (t) => {
  const root = t.testdir({});
  const home = join(root, 'home-a');
  const pid = await stand(t, engineWords(home), { OPENSEARCH_PATH_CONF: join(root, 'conf-a') }, 'OpenSearch');
  await stand(t, engineWords(join(root, 'home-b')), { OPENSEARCH_PATH_CONF: join(root, 'conf-b') }, 'OpenSearch');
  for (const [name, shell] of SHELLS) {
    const got = await layoutUnder(shell, {
      engine: 'opensearch',
      searchHome: home,
      searchHomeGiven: true,
      webHome: '/app/opensearch-dashboards',
      enginePidFile: join(root, 'no-such.pid'),
      root,
    });
    t.match(got.layout?.engineProcess, { pid: String(pid), how: 'its command line names this home' }, name);
    t.equal(got.layout?.engineConfig.path, join(root, 'conf-a'), `${name}: this process's config folder`);
    t.equal(got.layout?.engineHome.why, 'set in the inventory', `${name}: the inventory's home counts first`);
  }
});

t.test('hostile environments: a relative path, a newline, shell text; never run, never used', async (t) => {
  const root = t.testdir({});
  const canary = join(root, 'ran');
  const cases: Array<[string, string, RegExp | null]> = [
    ['relative', '../../etc/shadow-ish', /not an absolute path/],
    ['newline', '/etc/x\n/tmp', /control character/],
    ['dot-dot', '/etc/../root', /\. or \.\. part/],
    ['shell text', `/x/$(touch ${canary})\`touch ${canary}\`;touch ${canary}`, null],
  ];
  for (const [what, value, refused] of cases) {
    const home = join(root, what.replace(/ /g, '-'));
    const pid = await stand(t, engineWords(home), { OPENSEARCH_PATH_CONF: value }, 'OpenSearch');
    writeFileSync(join(root, 'pid'), `${pid}\n`);
    for (const [name, shell] of SHELLS) {
      const got = await layoutUnder(shell, {
        engine: 'opensearch',
        searchHome: home,
        searchHomeGiven: true,
        webHome: '/app/opensearch-dashboards',
        enginePidFile: join(root, 'pid'),
        root,
      });
      if (refused) {
        t.equal(got.layout?.engineConfig.path, `${home}/config`, `${name}, ${what}: the archive's folder instead`);
        t.match(got.layout?.refused, [new RegExp(`process OPENSEARCH_PATH_CONF: .*${refused.source}`)], name);
      } else t.equal(got.layout?.engineConfig.path, value, `${name}, ${what}: a path like any other, read as text`);
    }
  }
  t.notOk(existsSync(canary), 'nothing the environment said was run');
});

t.test('the service environment files, then the packages, then the archive', async (t) => {
  const root = t.testdir({});
  const probe = {
    engine: 'opensearch',
    searchHome: '/app/opensearch-none',
    webHome: '/app/opensearch-dashboards-none',
    enginePidFile: join(root, 'no.pid'),
    root,
  };
  const expect = async (what: string, conf: string, why: string, home?: string) => {
    for (const [name, shell] of SHELLS) {
      const got = await layoutUnder(shell, probe);
      t.match(got.layout?.engineConfig, { path: conf, why }, `${name}: ${what}`);
      if (home) t.equal(got.layout?.engineHome.path, home, `${name}: ${what}, the home`);
    }
  };
  await expect('nothing: the archive', '/app/opensearch-none/config', "the archive's layout");
  mkdirSync(join(root, 'etc/opensearch'), { recursive: true });
  mkdirSync(join(root, 'usr/share/opensearch'), { recursive: true });
  writeFileSync(join(root, 'etc/opensearch/opensearch.yml'), 'x: 1\n');
  const pkg = join(root, 'usr/share/opensearch');
  await expect('the packages', join(root, 'etc/opensearch'), "the packages' folder", pkg);
  mkdirSync(join(root, 'etc/sysconfig'), { recursive: true });
  writeFileSync(join(root, 'etc/sysconfig/opensearch'), `# rpm\nOPENSEARCH_PATH_CONF=${root}/rpm-conf\n`);
  await expect('/etc/sysconfig', `${root}/rpm-conf`, `set in ${root}/etc/sysconfig/opensearch`);
  mkdirSync(join(root, 'etc/default'), { recursive: true });
  writeFileSync(
    join(root, 'etc/default/opensearch'),
    `OPENSEARCH_PATH_CONF=/first\n  export OPENSEARCH_PATH_CONF="${root}/deb conf"\nOPENSEARCH_HOME='${root}/deb-home'\n`,
  );
  await expect(
    '/etc/default, its last line',
    `${root}/deb conf`,
    `set in ${root}/etc/default/opensearch`,
    `${root}/deb-home`,
  );
});

t.test('the web application: its process environment (OSD_PATH_CONF), the inventory before all', async (t) => {
  const root = t.testdir({});
  const web = join(root, 'usr/share/opensearch-dashboards');
  const pid = await stand(
    t,
    [`${web}/bin/../node/bin/node`, `${web}/bin/../src/cli/dist`],
    { OSD_PATH_CONF: join(root, 'etc/osd'), OPENSEARCH_URL: 'https://10.0.0.4:9200', 'ODD=NAME': 'a=b' },
    'src/cli/dist',
  );
  // what the web application's ${VAR} resolve from, as the test process reads it from the real /proc
  const own = parseEnviron(readFileSync(`/proc/${pid}/environ`));
  for (const [name, shell] of SHELLS) {
    const probe = { engine: 'opensearch', searchHome: '/app/x', webHome: web, webHomeGiven: true, root };
    const got = await layoutUnder(shell, probe);
    t.match(
      got.layout?.webConfig,
      { path: join(root, 'etc/osd'), why: `the running process's OSD_PATH_CONF (pid ${pid})` },
      name,
    );
    t.same(parseEnviron(Buffer.from(got.webEnv ?? '', 'latin1')), own, `${name}: its environment, exactly`);
    t.equal(own.OPENSEARCH_URL, 'https://10.0.0.4:9200');
    const inv = await layoutUnder(shell, { ...probe, webConfigDir: '/srv/osd' });
    t.same(inv.layout?.webConfig, { path: '/srv/osd', why: 'set in the inventory' }, `${name}: the inventory first`);
  }
});

t.test("this machine as it is: no engine here, the archive's folders; readHost says so", async (t) => {
  const c = cfg('me', { searchHome: '/app/opensearch-absent', webHome: '/app/osd-absent' });
  const facts = await readHost(fakeTransport('me', {}), c, 20);
  t.equal(
    facts.layout?.engineConfig.path,
    existsSync('/etc/opensearch/opensearch.yml') ? '/etc/opensearch' : '/app/opensearch-absent/config',
  );
  t.equal(facts.engineYml, null);
  t.same(layoutProbe(c).engine, 'opensearch');
});
