/** The lease of every selected cluster, taken before fix reads or changes anything there, renewed, then released. */
import { systemClock, type Clock } from '../base/clock.ts';
import { hostname, userInfo } from 'node:os';
import { fleetOf, type FleetRun, type ReachDeps } from '../reach/index.ts';
import { within } from '../base/deadline.ts';
import { redactText } from '../text/index.ts';
import { errText } from '../base/errors.ts';
import type { ClusterApi } from '../cluster/types.ts';
import { holderLine, type LeaseHolder } from '../facts/lease-note.ts';
import { LeaseLost, releaseLease, renewLease, takeLease, type LeaseState } from './lease.ts';

/** A lease outlives a holder that died by this long; a live one renews it every quarter of it. */
export const LEASE_TTL_MS = 120_000;

export interface LeaseOptions extends FleetRun {
  /** Only these clusters (api_url): the ones with something to do. Default every selected cluster. */
  only?: string[];
  warn: (m: string) => void;
  /** --break-lease: take the lease whoever holds it. */
  force?: boolean;
  /** How the fleet is reached and the clock (tests); what is left out is the real module. */
  deps?: Partial<ReachDeps & Clock>;
  /** Monotonic clock (ms), default the system's. */
  clock?: () => number;
  /** Default LEASE_TTL_MS. */
  ttlMs?: number;
  /** Ctrl-C while a lease is watched: nothing more is taken. */
  signal?: AbortSignal;
}

export interface FleetLeases {
  /** Per cluster api_url. */
  states: Map<string, LeaseState>;
  /** Aborted (with a LeaseLost) once the cluster's lease is lost: its steps stop as on Ctrl-C. */
  lost(url: string): AbortSignal | undefined;
  /** Stops renewing, deletes every lease held, closes the connections; never throws. */
  release(): Promise<void>;
}

/** This process, as another operator will see it. */
export function thisHolder(env: NodeJS.ProcessEnv, argv: string[] = process.argv.slice(2)): LeaseHolder {
  let user = env.USER ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (a container): the environment's name is all there is
  }
  return { user, host: hostname(), pid: process.pid, command: redactText(`smdoctor ${argv.join(' ')}`).slice(0, 300) };
}

export async function takeLeases(o: LeaseOptions, holder: LeaseHolder = thisHolder(o.env)): Promise<FleetLeases> {
  const fleet = fleetOf(o);
  const leases = await leaseApis(
    fleet.clusters
      .filter((g) => !o.only || o.only.includes(g.apiUrl))
      .map((g) => ({ url: g.apiUrl, api: fleet.api(g.apiUrl) })),
    o,
    holder,
  ).catch(async (err: unknown) => {
    await fleet.close();
    throw err;
  });
  return {
    ...leases,
    async release() {
      await leases.release();
      await fleet.close();
    },
  };
}

interface Held {
  url: string;
  api: ClusterApi;
  s: Extract<LeaseState, { kind: 'held' }>;
  /** Monotonic time of the last renewal that was answered. */
  renewed: number;
  lost: AbortController;
}

/** The lease of each cluster through its own REST client (migrate --apply's); the clients stay the caller's. */
export async function leaseApis(
  apis: Array<{ url: string; api: ClusterApi }>,
  o: Pick<LeaseOptions, 'timeout' | 'warn' | 'force' | 'clock' | 'ttlMs' | 'signal'> &
    Partial<Pick<LeaseOptions, 'env' | 'deps'>>,
  holder: LeaseHolder = thisHolder(o.env ?? {}),
): Promise<FleetLeases> {
  const now = o.deps?.now ?? systemClock.now;
  const clock = o.clock ?? o.deps?.monotonic ?? systemClock.monotonic;
  const ttlMs = o.ttlMs ?? LEASE_TTL_MS;
  const states = new Map<string, LeaseState>();
  await Promise.all(
    apis.map(async ({ url, api }) => {
      const state = await within(
        takeLease(api, holder, {
          ttlMs,
          now,
          clock,
          sleep: o.deps?.sleep ?? systemClock.sleep,
          activeSecs: o.timeout,
          onWatch: (doc) =>
            o.warn(
              `${url}: the lease of ${holderLine(doc)} has expired by this machine's clock; watching it for ${Math.round(ttlMs / 1000)}s: it is taken over only if nobody renews it meanwhile (--break-lease if that run died)`,
            ),
          ...(o.force ? { force: true } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
        }),
        3 * o.timeout * 1000 + 2 * ttlMs,
        'taking the lease',
      ).catch((err: unknown): LeaseState => ({ kind: 'error', why: errText(err) }));
      if (state.kind === 'held' && state.tookOver)
        o.warn(`${url}: ${o.force ? 'broke the lease' : 'took over the unrenewed lease'} of ${state.tookOver}`);
      states.set(url, state);
    }),
  );
  const held: Held[] = apis.flatMap(({ url, api }) => {
    const s = states.get(url);
    return s?.kind === 'held' ? [{ url, api, s, renewed: clock(), lost: new AbortController() }] : [];
  });
  const lose = (h: Held, why: string): void => {
    if (h.lost.signal.aborted) return;
    o.warn(`${h.url}: the fix lease was lost (${why}): no new step starts there; the allocation setting is restored`);
    h.lost.abort(new LeaseLost(why));
  };
  const renew = async (h: Held): Promise<void> => {
    if (h.lost.signal.aborted) return;
    const failed = await renewLease(h.api, h.s, { ttlMs, now }).catch((err: unknown) => ({
      why: errText(err),
      lost: false,
    }));
    if (!failed) h.renewed = clock();
    else if (failed.lost) lose(h, `another run broke or took it over: ${failed.why}`);
    // unrenewed for a whole period: another machine may rightly have taken it over
    else if (clock() - h.renewed >= ttlMs) lose(h, `not renewed for ${Math.round(ttlMs / 1000)}s: ${failed.why}`);
    else o.warn(`${h.url}: the lease could not be renewed: ${failed.why}`);
  };
  // one renewal at a time: two with the same sequence number would conflict with each other
  let renewing: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    renewing ??= Promise.all(held.map(renew)).finally(() => (renewing = null));
  }, ttlMs / 4);
  timer.unref();
  return {
    states,
    lost: (url) => held.find((h) => h.url === url)?.lost.signal,
    async release() {
      clearInterval(timer);
      await renewing;
      await Promise.all(
        // a lost lease is someone else's now
        held
          .filter((h) => !h.lost.signal.aborted)
          .map(async (h) => {
            const why = await releaseLease(h.api, h.s).catch((err: unknown) => errText(err));
            if (why) o.warn(`${h.url}: the lease could not be released (it expires by itself): ${why}`);
          }),
      );
    },
  };
}
