/** What the loaded packs need read, once for all their checks: each source's and matcher's module says its part. */
import type { Pack, PackMatcher, PackSource } from '../../model/index.ts';
import { matcherKind, matcherSources } from '../matchers/registry.ts';
import { sourceKind } from '../sources/registry.ts';
import type { PackNeeds } from './sources.ts';

/** Every source a check reads: its `read:` and the operands of `same_as:`. */
export function sourcesOf(read: PackSource, expect: readonly PackMatcher[]): PackSource[] {
  return [read, ...expect.flatMap(matcherSources)];
}

export function needsOf(packs: readonly Pack[]): PackNeeds {
  const n: PackNeeds = {
    files: new Map(),
    sysctls: new Set(),
    memory: false,
    limits: false,
    jvm: false,
    certs: false,
    keystore: false,
    apiPaths: new Set(),
    host: new Map(),
    started: false,
  };
  for (const c of packs.flatMap((p) => p.checks)) {
    const expect = [...c.expect, ...(c.when?.expect ?? [])];
    for (const m of expect) matcherKind(m.kind).needs?.(m, n);
    for (const s of [...sourcesOf(c.read, c.expect), ...(c.when ? sourcesOf(c.when.read, c.when.expect) : [])]) {
      const k = sourceKind(s.kind);
      k.needs?.(s, n);
      if (k.host) n.host.set(s.kind, (n.host.get(s.kind) ?? new Set()).add(k.host.key(s)));
    }
  }
  return n;
}

/** True when the packs read nothing on hosts beyond what audit reads anyway. */
export const hostReadsNeeded = (n: PackNeeds): boolean =>
  n.files.size > 0 || n.sysctls.size > 0 || n.memory || n.limits || n.jvm || n.certs || n.host.size > 0 || n.started;
