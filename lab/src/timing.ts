/** The lab's scaled-down allocation timing, kept in files beside restart-delay-ms so it can be tuned while the lab runs. */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_TIMING, type AllocTiming } from './api/alloc.ts';
import { readDelay, type LabLayout } from './layout.ts';

export const delayedTimeoutFile = (dir: string): string => join(dir, 'delayed-timeout-ms');
export const recoveryDelayFile = (dir: string): string => join(dir, 'recovery-delay-ms');
export const newCopyDelayFile = (dir: string): string => join(dir, 'new-copy-delay-ms');
/** While this file exists, no cluster of the lab can elect a manager (the scenario of a cluster that lost quorum). */
export const noElectionFile = (dir: string): string => join(dir, 'no-election');
/** One line per promotion, recovery and relocation the lab's allocator made. */
export const allocationLogFile = (dir: string): string => join(dir, 'cluster', 'allocation.log');

export async function readTiming(layout: LabLayout): Promise<AllocTiming> {
  return {
    delayedTimeoutMs: await readDelay(delayedTimeoutFile(layout.dir), DEFAULT_TIMING.delayedTimeoutMs),
    recoveryDelayMs: await readDelay(recoveryDelayFile(layout.dir), DEFAULT_TIMING.recoveryDelayMs),
    newCopyDelayMs: await readDelay(newCopyDelayFile(layout.dir), DEFAULT_TIMING.newCopyDelayMs),
  };
}

/** Appends allocation events to the log in order, one write at a time. */
export function allocationLogger(layout: LabLayout, cluster: string): (line: string) => void {
  let chain: Promise<void> = Promise.resolve();
  return (line) => {
    const text = `${new Date().toISOString()} [${cluster}] ${line}\n`;
    chain = chain.then(() => appendFile(allocationLogFile(layout.dir), text)).catch(() => undefined);
  };
}
