import t from 'tap';
import { execa } from 'execa';
import { readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  appendKnownHost,
  checkHostKey,
  fingerprint,
  hashHostName,
  hostKeyName,
  keyTypeOf,
  knownHostsEntryLine,
  loadKnownHosts,
  lookupHost,
  parseKnownHosts,
} from '../../../src/transport/known-hosts.ts';

/** A real key pair made by ssh-keygen: blob, base64 and the fingerprint ssh-keygen prints. */
async function realKey(dir: string, name: string, type = 'ed25519') {
  const path = join(dir, name);
  await execa('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', name, '-f', path]);
  const [kt, b64] = (await readFile(`${path}.pub`, 'utf8')).trim().split(/\s+/) as [string, string];
  const fp = (await execa('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${path}.pub`])).stdout.split(/\s+/)[1]!;
  return { type: kt, b64, blob: Buffer.from(b64, 'base64'), fp };
}

t.test('parse: entries, markers, comments and bad lines', async (t) => {
  const text = [
    '# comment',
    '',
    'host1,10.0.0.1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA== comment here',
    '[host2]:2222 ssh-rsa AAAAB3NzaC1yc2E=',
    '@revoked * ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB==',
    '@cert-authority *.example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC==',
    '@weird host ssh-ed25519 AAAA',
    'onlyhost',
    'h ssh-ed25519 not*base64',
    '  \t ',
  ].join('\n');
  const { entries, problems } = parseKnownHosts(text);
  t.match(entries, [
    { line: 3, marker: null, patterns: ['host1', '10.0.0.1'], keyType: 'ssh-ed25519' },
    { line: 4, marker: null, patterns: ['[host2]:2222'], keyType: 'ssh-rsa' },
    { line: 5, marker: 'revoked', patterns: ['*'] },
    { line: 6, marker: 'cert-authority', patterns: ['*.example'] },
  ]);
  t.equal(entries.length, 4);
  t.match(problems, [{ line: 7, message: /marker/ }, { line: 8 }, { line: 9 }]);
});

t.test('hostKeyName: port 22 uses the bare name', async (t) => {
  t.equal(hostKeyName('10.0.0.1', 22), '10.0.0.1');
  t.equal(hostKeyName('10.0.0.1', 2222), '[10.0.0.1]:2222');
});

t.test('lookup: plain, lists, ports, wildcards, negation, hashed (as ssh-keygen -H writes them)', async (t) => {
  const dir = t.testdir({});
  const k = await realKey(dir, 'k');
  const hashedFile = join(dir, 'hashed');
  await writeFile(hashedFile, `[127.9.9.9]:2222 ${k.type} ${k.b64}\nhashed.example ${k.type} ${k.b64}\n`);
  await execa('ssh-keygen', ['-H', '-f', hashedFile]);
  const hashed = await readFile(hashedFile, 'utf8');
  t.match(hashed, /^\|1\|/m, 'ssh-keygen hashed the file');
  const text = [
    `a.example,10.1.1.1 ${k.type} ${k.b64}`,
    `[10.1.1.2]:2200 ${k.type} ${k.b64}`,
    `*.wild.example,!bad.wild.example ${k.type} ${k.b64}`,
    `10.1.1.? ${k.type} ${k.b64}`,
    hashed,
  ].join('\n');
  const { entries } = parseKnownHosts(text);
  const cases: Array<[string, number, number]> = [
    ['a.example', 22, 1],
    ['10.1.1.1', 22, 2], // the list entry and the ? wildcard
    ['10.1.1.1', 2222, 0],
    ['10.1.1.2', 2200, 1],
    ['10.1.1.2', 22, 1], // only the wildcard
    ['x.wild.example', 22, 1],
    ['bad.wild.example', 22, 0],
    ['127.9.9.9', 2222, 1],
    ['127.9.9.9', 22, 0],
    ['hashed.example', 22, 1],
    ['A.EXAMPLE', 22, 1],
    ['other', 22, 0],
  ];
  for (const [host, port, n] of cases) t.equal(lookupHost(entries, host, port).length, n, `${host}:${port}`);
});

t.test('hashHostName matches what ssh-keygen -F finds', async (t) => {
  const dir = t.testdir({});
  const k = await realKey(dir, 'k');
  const file = join(dir, 'kh');
  await writeFile(file, `${hashHostName('[10.2.3.4]:2222', Buffer.alloc(20, 7))} ${k.type} ${k.b64}\n`);
  const r = await execa('ssh-keygen', ['-F', '[10.2.3.4]:2222', '-f', file], { reject: false });
  t.equal(r.exitCode, 0, 'ssh-keygen finds our hashed entry');
  const miss = await execa('ssh-keygen', ['-F', '10.2.3.4', '-f', file], { reject: false });
  t.not(miss.exitCode, 0);
});

t.test('fingerprint and key type agree with ssh-keygen', async (t) => {
  const dir = t.testdir({});
  for (const type of ['ed25519', 'ecdsa']) {
    const k = await realKey(dir, `k-${type}`, type);
    t.equal(fingerprint(k.blob), k.fp, type);
    t.equal(keyTypeOf(k.blob), k.type);
  }
});

t.test('checkHostKey verdicts', async (t) => {
  const dir = t.testdir({});
  const [a, b, e] = await Promise.all([realKey(dir, 'a'), realKey(dir, 'b'), realKey(dir, 'e', 'ecdsa')]);
  const line = (host: string, k: typeof a, marker = '') => `${marker}${host} ${k.type} ${k.b64}`;
  const cases: Array<{ name: string; lines: string[]; key: Buffer; want: unknown }> = [
    { name: 'known', lines: [line('[h]:2222', a)], key: a.blob, want: { status: 'known' } },
    { name: 'changed', lines: [line('[h]:2222', a)], key: b.blob, want: { status: 'changed', expected: [a.fp] } },
    { name: 'unknown', lines: [line('other', a)], key: a.blob, want: { status: 'unknown', otherTypes: [] } },
    {
      name: 'other type only',
      lines: [line('[h]:2222', e)],
      key: a.blob,
      want: { status: 'unknown', otherTypes: [e.type] },
    },
    {
      name: 'one of two matches',
      lines: [line('[h]:2222', b), line('[h]:2222', a)],
      key: a.blob,
      want: { status: 'known' },
    },
    {
      name: 'revoked wins',
      lines: [line('[h]:2222', a), line('*', a, '@revoked ')],
      key: a.blob,
      want: { status: 'revoked' },
    },
    {
      name: 'cert-authority ignored',
      lines: [line('[h]:2222', a, '@cert-authority ')],
      key: b.blob,
      want: { status: 'unknown', otherTypes: [] },
    },
  ];
  for (const c of cases)
    t.same(checkHostKey(parseKnownHosts(c.lines.join('\n')).entries, 'h', 2222, c.key), c.want, c.name);
});

t.test('appendKnownHost creates dir and 0600 file, keeps lines separate', async (t) => {
  const dir = t.testdir({ existing: 'x ssh-ed25519 AAAA' });
  const k = (await realKey(dir, 'k')).blob;
  const fresh = join(dir, 'new', 'sub', 'known_hosts');
  await appendKnownHost(fresh, knownHostsEntryLine('10.0.0.9', 2222, k));
  t.equal((await stat(fresh)).mode & 0o777, 0o600);
  t.equal(await readFile(fresh, 'utf8'), `[10.0.0.9]:2222 ssh-ed25519 ${k.toString('base64')}\n`);
  const existing = join(dir, 'existing');
  await appendKnownHost(existing, knownHostsEntryLine('10.0.0.9', 22, k));
  const lines = (await readFile(existing, 'utf8')).split('\n');
  t.equal(lines[0], 'x ssh-ed25519 AAAA');
  t.match(lines[1], /^10\.0\.0\.9 ssh-ed25519 /);
});

t.test('a known_hosts file is parsed once while unchanged, and again when it changes', async (t) => {
  const file = join(t.testdir({}), 'known_hosts');
  const key = (n: number) => Buffer.from(`key-${n}`.padEnd(16, '.')).toString('base64');
  await writeFile(file, `h1 ssh-ed25519 ${key(1)}\n`);
  const first = await loadKnownHosts(file);
  t.equal(await loadKnownHosts(file), first, 'unchanged: the same parse, not a new one per connection');
  await writeFile(file, `h1 ssh-ed25519 ${key(1)}\nh2 ssh-ed25519 ${key(2)}\n`);
  t.same(
    (await loadKnownHosts(file)).entries.map((e) => e.patterns),
    [['h1'], ['h2']],
    'a line added (accept-new) is seen',
  );
  // same size, other content, a later modification time: read again
  await writeFile(file, `h1 ssh-ed25519 ${key(3)}\nh2 ssh-ed25519 ${key(2)}\n`);
  const later = new Date(Date.now() + 5000);
  await utimes(file, later, later);
  t.same((await loadKnownHosts(file)).entries[0]!.key, Buffer.from(key(3), 'base64'), 'a rewritten key is seen');
  await rm(file);
  t.same((await loadKnownHosts(file)).entries, [], 'a removed file is an empty one');
});
