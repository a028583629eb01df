// The interruption both lab benchmarks share: every child goes through `track`, so Ctrl-C or kill ends the one in
// flight, starts no new one, and still takes the lab down (`stop`) before the script exits.

/** Installs the SIGINT/SIGTERM handlers and returns `track(start)`, which runs `start()` as the child in flight. */
export function interruptible(stop) {
  let aborted = false;
  let current = null;
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => {
      aborted = true;
      try {
        current?.kill().catch(() => undefined);
      } catch {
        /* already ended */
      }
      stop().finally(() => process.exit(130));
    });
  }
  return (start) => {
    if (aborted) throw new Error('bench: interrupted');
    const p = (current = start());
    return p.finally(() => {
      if (current === p) current = null;
    });
  };
}
