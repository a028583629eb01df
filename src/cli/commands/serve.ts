/**
 * `smdoctor serve`: audits the fleet every --interval over SSH connections it keeps open, and serves the last cycle's
 * report and metrics over HTTP(S). Read-only: it never fixes. SIGHUP reloads the inventory and the ssh configuration;
 * SIGINT/SIGTERM end it.
 */
import { readFile } from 'node:fs/promises';
import { createServer as createHttp, type Server } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { resolve } from 'node:path';
import { UsageError, formatError } from '../../base/errors.ts';
import { clockOf, type Clock } from '../../base/clock.ts';
import { connectHost, newRouteCache, openClusterApi, type RouteCache } from '../../reach/index.ts';
import { renderReport } from '../../report/render.ts';
import { escapeControls, redactText } from '../../text/index.ts';
import { parseAuthFile, credentialLine, gate, type Credential } from '../../serve/auth.ts';
import { stateChanged } from '../../serve/changed.ts';
import { newCycleState, runCycles, type CycleState } from '../../serve/cycle.ts';
import { endpoints } from '../../serve/http.ts';
import { keptReach } from '../../serve/kept.ts';
import { cycleMemo } from '../../audit/run.ts';
import { reloading } from '../../serve/reload.ts';
import { checkExposure, parseListen } from '../../serve/listen.ts';
import { checkTls } from '../../serve/tls.ts';
import { sayTo, type CliContext } from '../context.ts';
import { keepReport } from '../history.ts';
import { serveArgs, type ServeArgs } from '../args.ts';
import { auditSession } from '../audit-session.ts';
import { stopOnSignals } from '../stop-signals.ts';

type Log = (msg: string, fields?: Record<string, string | number | boolean>) => void;

const SERVE_WORDS = { first: 'stopping after the cycle under way', again: 'still stopping after the cycle under way' };

function logger(ctx: CliContext, json: boolean, clock: Clock): Log {
  return (msg, fields = {}) => {
    const line = json
      ? JSON.stringify({ time: new Date(clock.now()).toISOString(), msg: redactText(msg), ...fields })
      : `smdoctor: ${escapeControls(redactText(msg))}${Object.entries(fields)
          .map(([k, v]) => ` ${k}=${escapeControls(redactText(String(v)))}`)
          .join('')}`;
    sayTo(ctx.stderr).raw(`${line}\n`);
  };
}

async function readOrRefuse(ctx: CliContext, flag: string, file: string): Promise<string> {
  try {
    return await readFile(resolve(ctx.cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(`${flag} ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/** `--hash-secret [USER]`: the --auth-file line for the secret on standard input. */
async function hashSecret(ctx: CliContext, user: string | true): Promise<number> {
  let secret = '';
  for await (const chunk of ctx.stdin) secret += String(chunk);
  secret = secret.replace(/\r?\n$/, '');
  if (secret.length < 16)
    throw new UsageError(
      '--hash-secret wants at least 16 characters on standard input (a long random token, or a passphrase)',
    );
  ctx.stdout.write(`${credentialLine(secret, typeof user === 'string' ? user : undefined)}\n`);
  return 0;
}

export async function runServe(ctx: CliContext, flags: Partial<ServeArgs>): Promise<number> {
  const o = serveArgs(flags);
  if (o.hashSecret !== undefined) return hashSecret(ctx, o.hashSecret);
  const listen = parseListen(o.listen);
  const tls = o.tlsCert !== undefined || o.tlsKey !== undefined;
  if (tls && (o.tlsCert === undefined || o.tlsKey === undefined))
    throw new UsageError('serve: --tls-cert and --tls-key go together');
  checkExposure(listen, { tls, auth: o.authFile !== undefined });
  // the TLS files are read and checked before the inventory, as the auth file is
  const tlsFiles = tls
    ? checkTls(
        {
          cert: await readOrRefuse(ctx, '--tls-cert', o.tlsCert!),
          key: await readOrRefuse(ctx, '--tls-key', o.tlsKey!),
        },
        o.tlsCert!,
        o.tlsKey!,
      )
    : undefined;
  const credentials: Credential[] | undefined =
    o.authFile !== undefined
      ? parseAuthFile(await readOrRefuse(ctx, '--auth-file', o.authFile), o.authFile)
      : undefined;
  const clock = clockOf(ctx.deps);
  const log = logger(ctx, o.logFormat === 'json', clock);
  const kept = keptReach(
    { connect: ctx.deps?.connect ?? connectHost, api: ctx.deps?.api ?? openClusterApi },
    { now: clock.monotonic, random: clock.random },
  );
  const keptCtx: CliContext = { ...ctx, deps: { ...ctx.deps, ...kept.deps } };
  // what each host's last full read depended on: an unchanged host costs one SFTP round trip, no program, no parse
  const memo = cycleMemo({
    now: clock.now,
    note: (host, message) => log(`${host}: ${message}`),
  });
  let started = 0;
  // each setup has its own routes (ssh configuration as read, jump connections): a reload reads the file again
  const load = async () => {
    const routes: RouteCache = newRouteCache();
    const setup = await auditSession({ ...keptCtx, routes }, o).catch(async (e: unknown) => {
      await routes.close();
      throw e;
    });
    return { setup, routes };
  };
  const setups = reloading(await load(), {
    load,
    async swap(next, prev) {
      await kept.keepOnly(new Set(next.setup.hosts));
      // a kept connection through an old jump host goes on until its host's route changes; then the jump closes
      prev.routes.retire();
      // a reloaded inventory may move a host's folders or route: its next cycle reads every host in full
      started = 0;
      log('SIGHUP: inventory reloaded, ssh configuration read again', { hosts: next.setup.hosts.length });
    },
    failed: (e) => log(`SIGHUP: the inventory could not be reloaded, the last one stays: ${formatError(e)}`),
    discard: (next) => next.routes.close(),
  });
  const state: CycleState = newCycleState();
  const history = o.history !== undefined ? resolve(ctx.cwd, o.history) : undefined;
  const keep = (json: string) => keepReport(history!, 'audit', json, o.historyKeep);

  const handler = endpoints({
    state,
    links: kept.links,
    now: clock.monotonic,
    intervalMs: o.interval * 1000,
    ...(credentials ? { gate: gate(credentials) } : {}),
  });
  const server: Server = tlsFiles ? createHttps(tlsFiles, handler) : createHttp(handler);
  await new Promise<void>((ok, fail) => {
    server.once('error', (e) => fail(new UsageError(`--listen ${o.listen}: ${(e as Error).message}`)));
    server.listen(listen.port, listen.host, ok);
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  log(`serving on ${tls ? 'https' : 'http'}://${host}:${port}`, {
    hosts: setups.current().setup.hosts.length,
    interval: o.interval,
  });

  let written: unknown = null;
  const stops = stopOnSignals(ctx, ctx.deps?.signals, SERVE_WORDS, {
    say: (m, sig) => log(`${sig}: ${m}`),
    reload: () => setups.request(),
  });
  try {
    await runCycles(
      {
        audit: () =>
          setups.cycle((s) => {
            // the first cycle and every --full-every-th reads every host in full: an edit that kept its mtime shows
            memo.full = started++ % o.fullEvery === 0;
            return s.setup.audit(memo);
          }),
        intervalMs: o.interval * 1000,
        jitter: 0.2,
        clock,
        onCycle: async (c, previous) => {
          const s = c.report.summary;
          log(`cycle ${state.cycles}`, {
            seconds: Math.round(c.durationSeconds * 1000) / 1000,
            clusters: s.clusters,
            unreachable: s.unreachable,
            checks_failed: s.checks_failed,
            full: memo.full,
            hosts_unchanged: memo.kept.hosts,
          });
          if (history && stateChanged(previous?.report ?? null, c.report)) {
            await keep(renderReport(c.report, 'json'));
            written = c;
          }
        },
        onError: (e) => log(`cycle failed, the last report stays served: ${formatError(e)}`),
      },
      state,
      stops.stop,
    );
    // the last report is kept on the way out, whether or not the state changed since the last one kept
    if (history && state.last && written !== state.last) await keep(renderReport(state.last.report, 'json'));
    return 0;
  } finally {
    stops.dispose();
    await setups.close();
    await new Promise<void>((ok) => server.close(() => ok()));
    server.closeAllConnections();
    await kept.close();
    await setups.current().routes.close();
    log('stopped');
  }
}
