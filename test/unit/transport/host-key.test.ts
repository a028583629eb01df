import t from 'tap';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { preferredHostKeyAlgorithms, verifyHostKey } from '../../../src/transport/host-key.ts';
import { fingerprint } from '../../../src/transport/known-hosts.ts';
import type { HostConfig } from '../../../src/inventory/types.ts';
import type { HostKeyPolicy } from '../../../src/model/index.ts';

t.test('known key types are offered first, every default still offered', async (t) => {
  const cases: Array<[string[], string[]]> = [
    [[], ['ssh-ed25519', 'ecdsa-sha2-nistp256']],
    [['ssh-rsa'], ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa', 'ssh-ed25519']],
    [
      ['ecdsa-sha2-nistp384', 'ssh-ed25519'],
      ['ecdsa-sha2-nistp384', 'ssh-ed25519', 'ecdsa-sha2-nistp256'],
    ],
    [['ssh-dss', 'unknown-type'], ['ssh-ed25519']],
  ];
  for (const [types, head] of cases) {
    const got = preferredHostKeyAlgorithms(types);
    t.same(got.slice(0, head.length), head, types.join(',') || 'none');
    t.equal(new Set(got).size, got.length, 'no duplicates');
    t.equal(got.length, 7, 'all defaults offered');
  }
});

const blob = () => {
  const type = Buffer.from('ssh-ed25519');
  const len = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  return Buffer.concat([len(type.length), type, len(32), randomBytes(32)]);
};

t.test('verifyHostKey policies', async (t) => {
  const known = blob();
  const other = blob();
  const line = `[10.9.9.9]:2222 ssh-ed25519 ${known.toString('base64')}\n`;
  const cases: Array<{
    policy: HostKeyPolicy;
    key: Buffer;
    file: string;
    error?: RegExp;
    warn?: RegExp;
    appended?: boolean;
  }> = [
    { policy: 'strict', key: known, file: line },
    { policy: 'strict', key: other, file: line, error: /CHANGED/ },
    { policy: 'strict', key: other, file: '', error: /not in/ },
    { policy: 'accept-new', key: other, file: line, error: /CHANGED/ },
    { policy: 'accept-new', key: other, file: '', warn: /recorded/, appended: true },
    { policy: 'off', key: other, file: line, warn: /CHANGED.*off/ },
    { policy: 'off', key: other, file: '', warn: /OFF/ },
  ];
  for (const [i, c] of cases.entries()) {
    const dir = t.testdir({ kh: c.file });
    const file = join(dir, 'kh');
    const cfg = {
      name: 'h',
      address: '10.9.9.9',
      port: 2222,
      knownHostsFile: file,
      hostKeyChecking: c.policy,
    } as HostConfig;
    const warnings: string[] = [];
    const name = `${i}: ${c.policy}`;
    const p = verifyHostKey(cfg, c.key, (m) => warnings.push(m));
    if (c.error) {
      await t.rejects(p, { code: 'HOST_KEY', host: 'h', message: c.error }, name);
      if (c.file)
        await t.rejects(
          verifyHostKey(cfg, c.key),
          { message: fingerprint(known) },
          `${name}: expected fingerprint shown`,
        );
      await t.rejects(
        verifyHostKey(cfg, c.key),
        { message: fingerprint(c.key) },
        `${name}: presented fingerprint shown`,
      );
    } else await t.resolves(p, name);
    if (c.warn) t.match(warnings.join('\n'), c.warn, `${name}: warns`);
    else t.same(warnings, [], `${name}: quiet`);
    const after = await readFile(file, 'utf8');
    if (c.appended)
      t.equal(after, `${c.file}[10.9.9.9]:2222 ssh-ed25519 ${c.key.toString('base64')}\n`, `${name}: recorded`);
    else t.equal(after, c.file, `${name}: file untouched`);
  }
});

t.test('every UserKnownHostsFile is read, as ssh reads them; a new key goes to the first', async (t) => {
  const known = blob();
  const line = (k: Buffer) => `[10.9.9.9]:2222 ssh-ed25519 ${k.toString('base64')}\n`;
  const dir = t.testdir({
    first: '',
    second: line(known),
    revoked: `@revoked * ssh-ed25519 ${known.toString('base64')}\n`,
  });
  const cfg = (policy: HostKeyPolicy, also: string[]) =>
    ({
      name: 'h',
      address: '10.9.9.9',
      port: 2222,
      knownHostsFile: join(dir, 'first'),
      knownHostsAlso: also.map((f) => join(dir, f)),
      hostKeyChecking: policy,
    }) as HostConfig;
  await t.resolves(verifyHostKey(cfg('strict', ['second']), known), 'the key in the second file is known');
  await t.rejects(verifyHostKey(cfg('strict', ['second']), blob()), {
    message: /CHANGED: known_hosts \(.*first, .*second\)/,
  });
  await t.rejects(
    verifyHostKey(cfg('off', ['second', 'revoked']), known),
    { message: /@revoked in/ },
    'a revocation anywhere counts',
  );
  const fresh = blob();
  await verifyHostKey({ ...cfg('accept-new', ['missing']), address: '10.9.9.8' }, fresh);
  t.match(await readFile(join(dir, 'first'), 'utf8'), fresh.toString('base64'), 'recorded in the first file');
});
