/**
 * `smdoctor serve`: audits the fleet every --interval over SSH connections it keeps open, and serves the last cycle's
 * report and metrics over HTTP(S). Read-only: it never fixes. SIGHUP reloads the inventory; SIGINT/SIGTERM end it.
 */
import { readFile } from 'node:fs/promises';
import { createServer as createHttp, type Server } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { resolve } from 'node:path';
import { UsageError, formatError } from '../../base/errors.ts';
import { connectHost, openClusterApi } from '../../reach/index.ts';
import { renderReport } from '../../report/render.ts';
import { escapeControls, redactText } from '../../text/index.ts';
import { parseAuthFile, credentialLine, gate, type Credential } from '../../serve/auth.ts';
import { stateChanged } from '../../serve/changed.ts';
import { abortableSleep, newCycleState, runCycles, type CycleState } from '../../serve/cycle.ts';
import { endpoints } from '../../serve/http.ts';
import { keptReach } from '../../serve/kept.ts';
import { cycleMemo } from '../../audit/run.ts';
import { checkExposure, parseListen } from '../../serve/listen.ts';
import { checkTls } from '../../serve/tls.ts';
import { sayTo, type CliContext, type CommonOptions } from '../context.ts';
import { keepReport } from '../history.ts';
import { serveArgs } from '../args.ts';
import { auditSetup } from './audit.ts';

type Log = (msg: string, fields?: Record<string, string | number | boolean>) => void;

function logger(ctx: CliContext, json: boolean): Log {
  return (msg, fields = {}) => {
    const line = json
      ? JSON.stringify({ time: new Date().toISOString(), msg: redactText(msg), ...fields })
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

export async function runServe(ctx: CliContext, flags: CommonOptions & Record<string, unknown>): Promise<number> {
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
  const log = logger(ctx, o.logFormat === 'json');
  const kept = keptReach({ connect: ctx.deps?.connect ?? connectHost, api: ctx.deps?.api ?? openClusterApi });
  const keptCtx: CliContext = { ...ctx, deps: { ...ctx.deps, ...kept.deps } };
  let setup = await auditSetup(keptCtx, o);
  const wallNow = ctx.deps?.now ?? Date.now;
  // what each host's last full read depended on: an unchanged host costs one SFTP round trip, no program, no parse
  const memo = cycleMemo({
    now: wallNow,
    note: (host, message) => log(`${host}: ${message}`),
  });
  let started = 0;
  const state: CycleState = newCycleState();
  const history = o.history !== undefined ? resolve(ctx.cwd, o.history) : undefined;
  const keep = (json: string) => keepReport(history!, 'audit', json, o.historyKeep);

  const handler = endpoints({
    state,
    links: kept.links,
    now: () => performance.now(),
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
  log(`serving on ${tls ? 'https' : 'http'}://${host}:${port}`, { hosts: setup.hosts.length, interval: o.interval });

  const stopper = new AbortController();
  let written: unknown = null;
  const onStop = (sig: NodeJS.Signals): void => {
    log(`${sig}: stopping after the cycle under way`);
    stopper.abort();
  };
  const onReload = (): void => {
    auditSetup(keptCtx, o).then(
      async (next) => {
        await kept.keepOnly(new Set(next.hosts));
        setup = next;
        log('SIGHUP: inventory reloaded', { hosts: next.hosts.length });
      },
      (e: unknown) => log(`SIGHUP: the inventory could not be reloaded, the last one stays: ${formatError(e)}`),
    );
  };
  process.on('SIGINT', onStop);
  process.on('SIGTERM', onStop);
  process.on('SIGHUP', onReload);
  try {
    await runCycles(
      {
        audit: () => {
          // the first cycle and every --full-every-th reads every host in full: an edit that kept its mtime shows
          memo.full = started++ % o.fullEvery === 0;
          return setup.audit(memo);
        },
        intervalMs: o.interval * 1000,
        jitter: 0.2,
        random: Math.random,
        now: () => performance.now(),
        wallNow,
        sleep: abortableSleep,
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
      stopper.signal,
    );
    // the last report is kept on the way out, whether or not the state changed since the last one kept
    if (history && state.last && written !== state.last) await keep(renderReport(state.last.report, 'json'));
    return 0;
  } finally {
    process.off('SIGINT', onStop);
    process.off('SIGTERM', onStop);
    process.off('SIGHUP', onReload);
    await new Promise<void>((ok) => server.close(() => ok()));
    server.closeAllConnections();
    await kept.close();
    log('stopped');
  }
}
