/**
 * serve's credentials and TLS files as users run them (the built binary), with no fleet to reach: the inventory names
 * one host on a loopback port nobody listens on, so every cycle ends at once and the endpoints are what is tried.
 */
import t from 'tap';
import { request, Agent } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { credentialLine } from '../../../src/serve/auth.ts';
import { serveProcess } from '../../helpers/serve.ts';

const serve = serveProcess;

/** GET from a chosen loopback source address: the server sees each client by its address. */
function getFrom(url: string, from: string, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress: from, headers: { authorization }, agent: new Agent() }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const basic = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;

async function noFleet(dir: string): Promise<string> {
  const inventory = join(dir, 'hosts.ini');
  // port 9 on a loopback address of its own: nothing listens there, a cycle ends at once
  await writeFile(inventory, `[search]\nn1 ansible_host=127.0.0.1 ansible_port=9 api_url=http://127.0.0.1:9\n`);
  return inventory;
}

t.test('a client guessing passwords never costs a scraper its answer', async (t) => {
  const dir = t.testdir();
  const inventory = await noFleet(dir);
  const auth = join(dir, 'auth');
  // eight scrapers, each a header serve has never checked, as after a start of serve or for a new scraper
  const scrapers = Array.from({ length: 8 }, (_, i) => [`prom${i}`, `correct horse battery ${i}`] as const);
  await writeFile(auth, scrapers.map(([u, p]) => credentialLine(p, u)).join('\n') + '\n');
  const s = await serve(['-i', inventory, '--listen', '127.0.0.1:0', '--interval', '3600', '--auth-file', auth]);
  t.teardown(() => void s.proc.kill('SIGKILL'));

  // the guesser knows a user's name and keeps 16 wrong guesses in flight from 127.0.0.2, for a bounded time
  const stop = { now: false };
  let guesses = 0;
  const guessed: number[] = [];
  const flood = Promise.all(
    Array.from({ length: 16 }, async (_, k) => {
      for (let i = 0; !stop.now && i < 10_000; i++) {
        guesses++;
        guessed.push(await getFrom(`${s.url}/metrics`, '127.0.0.2', basic('prom0', `guess ${k}-${i}`)));
      }
    }),
  );
  const deadline = setTimeout(() => (stop.now = true), 120_000);
  t.teardown(() => clearTimeout(deadline));
  while (guesses < 40) await new Promise((r) => setTimeout(r, 20));

  const answers: number[] = [];
  for (const [u, p] of scrapers) answers.push(await getFrom(`${s.url}/metrics`, '127.0.0.3', basic(u, p)));
  const during = guesses;
  stop.now = true;
  await flood;
  t.ok(during > 40, `the flood went on while the scrapers asked (${during} guesses)`);
  t.same(answers, Array(8).fill(200), 'every scraper admitted, the first time it asked');
  t.ok(
    guessed.every((c) => c === 401),
    'every guess refused',
  );
  s.proc.kill('SIGTERM');
  t.equal((await s.proc).exitCode, 0);
});
