/** serve's --auth-file and --listen: hashed credentials only, every bad line named, no exposed address without TLS and auth. */
import t from 'tap';
import { scrypt } from 'node:crypto';
import { credentialLine, gate, parseAuthFile } from '../../../src/serve/auth.ts';
import { checkExposure, parseListen } from '../../../src/serve/listen.ts';

const token = 'tok-0123456789abcdef-secret';
const basic = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;

t.test('tokens and users admitted by their hashes; anything else refused', async (t) => {
  const file = `# scrapers\n${credentialLine(token)}\n${credentialLine('correct horse battery', 'alice')}  # ops\n`;
  t.notMatch(file, token, 'the file holds no secret');
  const creds = parseAuthFile(file, 'auth');
  const cases: Array<[string | undefined, boolean]> = [
    [`Bearer ${token}`, true],
    [`bearer ${token}`, true],
    [`Bearer ${token}x`, false],
    [basic('alice', 'correct horse battery'), true],
    [basic('alice', 'wrong'), false],
    [basic('bob', 'correct horse battery'), false],
    [`Basic ${Buffer.from('nocolon').toString('base64')}`, false],
    [undefined, false],
    ['', false],
    ['Digest x', false],
  ];
  const g = gate(creds);
  for (const [header, ok] of cases) t.equal(await g.admits(header), ok, String(header));
});

t.test('bad lines are refused all at once with their line numbers', async (t) => {
  const text = `bearer sha256:abc\n\nbasic alice plain\n${credentialLine(token)}\nbearer\n`;
  t.throws(() => parseAuthFile(text, 'a.txt'), {
    name: 'UsageError',
    message: /a\.txt:1: .*\na\.txt:3: .*\na\.txt:5: /,
  });
  t.throws(() => parseAuthFile('# nothing\n', 'a.txt'), { message: /no credential/ });
});

t.test('--listen: forms, and exposure needs TLS and credentials', async (t) => {
  t.same(parseListen('127.0.0.1:9720'), { host: '127.0.0.1', port: 9720 });
  t.same(parseListen('[::1]:0'), { host: '::1', port: 0 });
  t.same(parseListen('0.0.0.0:80'), { host: '0.0.0.0', port: 80 });
  for (const bad of ['9720', '127.0.0.1', '127.0.0.1:99999', '[zz]:1', '::1:9720', 'a:b'])
    t.throws(() => parseListen(bad), { name: 'UsageError' }, bad);
  t.doesNotThrow(() => checkExposure({ host: '127.0.0.2', port: 1 }, { tls: false, auth: false }));
  t.doesNotThrow(() => checkExposure({ host: 'localhost', port: 1 }, { tls: false, auth: false }));
  t.throws(() => checkExposure({ host: '0.0.0.0', port: 1 }, { tls: false, auth: false }), {
    message: /needs --tls-cert and --tls-key and --auth-file/,
  });
  t.throws(() => checkExposure({ host: '::', port: 1 }, { tls: true, auth: false }), { message: /needs --auth-file/ });
  t.throws(() => checkExposure({ host: '10.1.2.3', port: 1 }, { tls: false, auth: true }), { message: /--tls-cert/ });
  t.doesNotThrow(() => checkExposure({ host: '0.0.0.0', port: 1 }, { tls: true, auth: true }));
});

t.test('serve --hash-secret prints the line for the secret on standard input, and refuses a short one', async (t) => {
  const { runCli } = await import('../../helpers/cli.ts');
  const token = 'a-long-random-token-0123456789';
  const r = await runCli(['serve', '--hash-secret'], { stdin: `${token}\n`, env: {} });
  t.equal(r.code, 0, r.err);
  t.ok(await gate(parseAuthFile(r.out, 'out')).admits(`Bearer ${token}`), 'the printed line admits the token');
  t.notMatch(r.out, token);
  const u = await runCli(['serve', '--hash-secret', 'carol'], { stdin: 'correct horse battery staple', env: {} });
  t.ok(await gate(parseAuthFile(u.out, 'out')).admits(basic('carol', 'correct horse battery staple')));
  const short = await runCli(['serve', '--hash-secret'], { stdin: 'short\n', env: {} });
  t.equal(short.code, 2);
  t.match(short.err, /at least 16 characters/);
});

t.test('the gate: a repeated header costs no second scrypt, and a guessing client waits its turn', async (t) => {
  const creds = parseAuthFile(
    `${credentialLine(token)}\n${credentialLine('correct horse battery', 'alice')}\n`,
    'auth',
  );
  let runs = 0;
  const held: Array<() => void> = [];
  let hold = false;
  let cheap = false;
  const order: string[] = [];
  const kdf = ((...a: Parameters<typeof scrypt>) => {
    runs++;
    order.push(String(a[0]));
    const go = () => (scrypt as (...x: unknown[]) => void)(...a);
    // the flood below needs only wrong answers, not 300 real derivations
    const done = a.at(-1) as (err: Error | null, key: Buffer) => void;
    if (cheap) setImmediate(() => done(null, Buffer.alloc(32)));
    else if (hold) held.push(go);
    else go();
  }) as typeof scrypt;
  const g = gate(creds, kdf);
  const good = basic('alice', 'correct horse battery');
  t.equal(await g.admits(good), true);
  t.equal(await g.admits(good), true);
  t.equal(await g.admits(basic('alice', 'wrong')), false);
  t.equal(await g.admits(basic('alice', 'wrong')), false);
  t.equal(runs, 2, 'one scrypt per distinct header');
  t.equal(await g.admits(`Bearer ${token}`), true, 'a bearer token needs no scrypt');
  t.equal(await g.admits(basic('mallory', 'x')), false, 'an unknown user needs none either');
  t.equal(runs, 2);

  hold = true;
  const from = '127.0.0.2';
  const guesses = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((pw) => g.admits(basic('alice', pw), from));
  t.equal(await guesses[6], false, 'a client’s guesses beyond two running and four waiting are refused at once');
  t.equal(await g.admits(good), true, 'a remembered header is still admitted while checks run');
  t.equal(runs, 4, 'only two scrypt checks started');
  const other = g.admits(basic('alice', 'from elsewhere'), '127.0.0.3');
  for (const go of held.splice(0)) go();
  await Promise.all(guesses.slice(0, 2));
  t.equal(runs, 6, 'two more checks started as two ended');
  t.equal(order[4], 'from elsewhere', 'another client’s check goes before the guesser’s waiting ones');
  for (const go of held.splice(0)) go();
  t.equal(await other, false);
  hold = false;
  for (const go of held.splice(0)) go();
  t.same(await Promise.all(guesses), [false, false, false, false, false, false, false]);

  hold = false;
  cheap = true;
  let wrong = 0;
  for (let i = 0; i < 300; i++) if (!(await g.admits(basic('alice', `guess ${i}`)))) wrong++;
  t.equal(wrong, 300, '300 wrong guesses refused');
  const before = runs;
  t.equal(await g.admits(good), true, 'after them the scraper is still admitted');
  t.equal(runs, before, 'from memory, without a new scrypt');
});

t.test('--listen localhost binds 127.0.0.1: the name is never resolved, so no hosts file can expose it', async (t) => {
  t.same(parseListen('localhost:9720'), { host: '127.0.0.1', port: 9720 });
  t.same(parseListen('[::1]:0'), { host: '::1', port: 0 });
});
