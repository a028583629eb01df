/**
 * Large-fleet mode of the lab: one "front" process listens on every host's SSH and API address, starts
 * `sshd -i` with that host's own config per connection, and puts a user-space network delay in front of both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from 'smdoctor';

/** Above this many hosts the lab always runs the front: one sshd per host no longer fits a small machine. */
export const FRONT_ABOVE_HOSTS = 250;
/** The port the daemon's API listeners take in front mode; the front holds the public 9200. */
export const API_BEHIND_FRONT_PORT = 19200;
/** Every port a front-mode host uses on its address: SSH, the API, the daemon's API behind the front. */
export const FRONT_PORTS = [2222, 9200, API_BEHIND_FRONT_PORT];

export interface FrontHost {
  name: string;
  ip: string;
  sshPort: number;
  sshdConfig: string;
  /** Engine nodes serve the API: the front forwards ip:apiPort to ip:upstreamPort (the daemon). */
  api?: { port: number; upstreamPort: number };
}

/** What the front process reads at start: <dir>/front/front.json. */
export interface FrontConfig {
  dir: string;
  sshd: string;
  hosts: FrontHost[];
  rttFile: string;
  /** One JSON line per closed connection: kind, host, bytes, round trips, duration. */
  linksFile: string;
  logFile: string;
  pidFile: string;
  readyFile: string;
}

/** Hosts the front holds down, one name a line: read again on SIGHUP (a missing file is none down). */
export const downFile = (labDir: string): string => join(frontDir(labDir), 'down');
/** The names the front has put down, written once it has: a caller waits for it to match what it asked. */
export const downAppliedFile = (labDir: string): string => join(frontDir(labDir), 'down-applied');

/** The host names in a down file, sorted; a missing file is none. */
export function readDown(file: string): string[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return [
    ...new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ].sort();
}

export const frontDir = (labDir: string): string => join(labDir, 'front');
export const frontConfigFile = (labDir: string): string => join(frontDir(labDir), 'front.json');
/** The round-trip time the front emulates, in ms; read at every new connection, so it can change while the lab runs. */
export const rttFile = (labDir: string): string => join(labDir, 'rtt-ms');

export interface FrontChoice {
  front: boolean;
  rttMs: number;
}

/** SMDOCTOR_LAB_FRONT=1, a round-trip time (SMDOCTOR_LAB_RTT_MS, which needs the front), or a fleet over 250 hosts. */
export function frontChoice(env: NodeJS.ProcessEnv, hosts: number): FrontChoice {
  const raw = env.SMDOCTOR_LAB_RTT_MS;
  const rttMs = raw === undefined || raw === '' ? 0 : Number(raw);
  if (!Number.isFinite(rttMs) || rttMs < 0 || rttMs > 10_000)
    throw new InputError(`SMDOCTOR_LAB_RTT_MS must be 0..10000 milliseconds, got '${raw}'`);
  const asked = env.SMDOCTOR_LAB_FRONT;
  if (asked === '0' && (rttMs > 0 || hosts > FRONT_ABOVE_HOSTS))
    throw new InputError('SMDOCTOR_LAB_FRONT=0 cannot serve a round-trip time or more than 250 hosts');
  return { front: asked === '1' || rttMs > 0 || hosts > FRONT_ABOVE_HOSTS, rttMs };
}

/** The current round-trip time; a missing or bad file is no delay. */
export function readRtt(file: string): number {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isFinite(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}
