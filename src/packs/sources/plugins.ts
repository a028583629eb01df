/** `plugins`: the node's installed plugins, from their descriptors. */
import { ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const plugins: SourceKind<'plugins'> = {
  doc: { write: '`plugins`', value: "the node's installed plugins: a list of `{name, version, engine_version}`" },
  object: true,
  read: (_, c) =>
    ok(
      c.host!.plugins.map((p) => ({
        name: p.name,
        version: p.version ?? null,
        engine_version: p.engineVersion ?? null,
      })),
    ),
};
