import type { LabLayout } from './layout.ts';
import { LabRuntime } from './runtime.ts';
import { startControl, stopControl } from './control.ts';
import { apiServerFactory, loadStores, persistStores } from './persist.ts';
import { allocationLogger, readTiming } from './timing.ts';

export interface LabServices {
  runtime: LabRuntime;
  stop(): Promise<void>;
}

/** The lab's in-memory side: index stores, node runtimes with their API listeners, the control socket. */
export async function startServices(
  layout: LabLayout,
  password: string,
  tls: { key: string; cert: string },
  restartDelayMs?: number,
): Promise<LabServices> {
  const stores = await loadStores(layout);
  const timing = await readTiming(layout);
  for (const [name, store] of stores) {
    store.timing = timing;
    store.onAllocation = allocationLogger(layout, name);
  }
  const flush = persistStores(layout, stores);
  const runtime = new LabRuntime(layout, { createServer: apiServerFactory(password, tls), stores, restartDelayMs });
  await runtime.start();
  let control;
  try {
    control = await startControl(runtime, layout.controlSocket);
  } catch (err) {
    await runtime.stop();
    throw err;
  }
  return {
    runtime,
    async stop() {
      await stopControl(control, layout.controlSocket);
      await runtime.stop();
      for (const s of stores.values()) s.close();
      await flush();
    },
  };
}
