/** The parsers of the flags' values, each made once: commander's error names the flag and what was wrong. */
import { InvalidArgumentError } from 'commander';
import { parseShard, type Shard } from '../inventory/shard.ts';

/** Node's timers hold at most 2^31-1 ms: a longer duration would fire at once. */
export const MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

function positiveInt(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer`);
    return n;
  };
}

function seconds(name: string) {
  return (v: string): number => {
    const n = positiveInt(name)(v);
    if (n > MAX_SECONDS)
      throw new InvalidArgumentError(`${name} must be at most ${MAX_SECONDS} seconds (about 24 days)`);
    return n;
  };
}

/** serve's `--interval`: whole or decimal seconds from 0.1 (a benchmark runs many cycles in minutes). */
const MIN_INTERVAL = 0.1;
export function intervalSeconds(name: string) {
  return (v: string): number => {
    // digits and one point only: no exponent, hex, sign or Infinity
    const n = /^\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
    if (!(n >= MIN_INTERVAL))
      throw new InvalidArgumentError(`${name} must be a number of seconds, at least ${MIN_INTERVAL}`);
    if (n > MAX_SECONDS)
      throw new InvalidArgumentError(`${name} must be at most ${MAX_SECONDS} seconds (about 24 days)`);
    return n;
  };
}

/** `--shard K/N`, checked when the command line is read. */
export function shardArg(v: string): Shard {
  try {
    return parseShard(v);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message.replace(/^--shard: /, ''));
  }
}

export const collect = (v: string, prev: string[]): string[] => [...prev, v];

// parsers made once: one flag, one parser, whichever command declares it
export const FORKS = positiveInt('--forks');
export const JUMP_CHANNELS = positiveInt('--jump-channels');
export const TIMEOUT = seconds('--timeout');
export const HISTORY_KEEP = positiveInt('--history-keep');
export const INTERVAL = intervalSeconds('--interval');
export const FULL_EVERY = positiveInt('--full-every');
export const VERBOSE = (_v: string, prev: number) => prev + 1;
