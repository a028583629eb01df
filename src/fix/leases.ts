/** The lease of every selected cluster, taken before fix reads or changes anything there, renewed, then released. */
import { hostname, userInfo } from 'node:os';
import { fleetOf, type AccessOptions, type ReachDeps } from '../reach/index.ts';
import type { Inventory } from '../inventory/types.ts';
import { within } from '../deadline.ts';
import { redactText } from '../secrets.ts';
import { errText } from '../errors.ts';
import type { ClusterApi } from '../cluster/types.ts';
import { holderLine, releaseLease, renewLease, takeLease, type LeaseHolder, type LeaseState } from './lease.ts';

/** A lease outlives a holder that died by this long; a live one renews it every quarter of it. */
export const LEASE_TTL_MS = 120_000;

export interface LeaseOptions {
  inventory: Inventory;
  hosts: string[];
  /** --ssh-config and --jump-channels (none when left out). */
  access?: AccessOptions;
  timeout: number;
  env: NodeJS.ProcessEnv;
  warn: (m: string) => void;
  /** --break-lease: take the lease whoever holds it. */
  force?: boolean;
  deps?: Partial<ReachDeps>;
  now?: () => number;
}

export interface FleetLeases {
  /** Per cluster api_url. */
  states: Map<string, LeaseState>;
  /** Stops renewing, deletes every lease held, closes the connections; never throws. */
  release(): Promise<void>;
}

/** This process, as another operator will see it. */
export function thisHolder(argv: string[] = process.argv.slice(2)): LeaseHolder {
  let user = process.env.USER ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (a container): the environment's name is all there is
  }
  return { user, host: hostname(), pid: process.pid, command: redactText(`smdoctor ${argv.join(' ')}`).slice(0, 300) };
}

export async function takeLeases(o: LeaseOptions, holder: LeaseHolder = thisHolder()): Promise<FleetLeases> {
  const fleet = fleetOf(o);
  const leases = await leaseApis(
    fleet.clusters.map((g) => ({ url: g.apiUrl, api: fleet.api(g.apiUrl) })),
    o,
    holder,
  ).catch(async (err: unknown) => {
    await fleet.close();
    throw err;
  });
  return {
    states: leases.states,
    async release() {
      await leases.release();
      await fleet.close();
    },
  };
}

/** The lease of each cluster through its own REST client (migrate --apply's); the clients stay the caller's. */
export async function leaseApis(
  apis: Array<{ url: string; api: ClusterApi }>,
  o: Pick<LeaseOptions, 'timeout' | 'warn' | 'force' | 'now'>,
  holder: LeaseHolder = thisHolder(),
): Promise<FleetLeases> {
  const now = o.now ?? Date.now;
  const states = new Map<string, LeaseState>();
  await Promise.all(
    apis.map(async ({ url, api }) => {
      const state = await within(
        takeLease(api, holder, { ttlMs: LEASE_TTL_MS, now, ...(o.force ? { force: true } : {}) }),
        2 * o.timeout * 1000,
        'taking the lease',
      ).catch((err: unknown): LeaseState => ({ kind: 'error', why: errText(err) }));
      if (state.kind === 'held' && state.tookOver)
        o.warn(
          `${url}: ${o.force ? 'broke the lease' : 'took over the expired lease'} of ${holderLine(state.tookOver)}`,
        );
      states.set(url, state);
    }),
  );
  const held = apis.flatMap(({ url, api }) => {
    const s = states.get(url);
    return s?.kind === 'held' ? [{ url, api, s }] : [];
  });
  // one renewal at a time: two with the same sequence number would conflict with each other
  let renewing: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    renewing ??= Promise.all(
      held.map((h) =>
        renewLease(h.api, h.s, { ttlMs: LEASE_TTL_MS, now })
          .catch((err: unknown) => errText(err))
          .then((why) => why && o.warn(`${h.url}: the lease could not be renewed: ${why}`)),
      ),
    ).finally(() => (renewing = null));
  }, LEASE_TTL_MS / 4);
  timer.unref();
  return {
    states,
    async release() {
      clearInterval(timer);
      await renewing;
      await Promise.all(
        held.map(async (h) => {
          const why = await releaseLease(h.api, h.s).catch((err: unknown) => errText(err));
          if (why) o.warn(`${h.url}: the lease could not be released (it expires by itself): ${why}`);
        }),
      );
    },
  };
}
