/** `gathering 12/40 hosts…` rewritten in place on a terminal's stderr; silent elsewhere. */

export interface Progress {
  update: (done: number, total: number) => void;
  clear: () => void;
}

export function progressRenderer(stream: NodeJS.WritableStream & { isTTY?: boolean }): Progress {
  if (!stream.isTTY) return { update: () => undefined, clear: () => undefined };
  let shown = false;
  return {
    update(done, total) {
      stream.write(`\r\x1b[2Kgathering ${done}/${total} hosts…`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
