/** `service: UNIT`: what systemd says of every unit the packs name, from ONE `systemctl show` per host. */
import { shQuote as shq } from '../../transport/command.ts';

/** A unit name as systemd takes it (`opensearch`, `opensearch@a.service`), never an option. */
export const UNIT_RE = /^[A-Za-z0-9:_.\\@][A-Za-z0-9:_.\\@-]{0,254}$/;

export interface ServiceInfo {
  active: boolean;
  enabled: boolean;
  user: string;
  /** A number, or `unlimited` (systemd's `infinity`), as `engine_process` gives limits. */
  limit_nofile: number | 'unlimited';
  limit_memlock: number | 'unlimited';
  limit_nproc: number | 'unlimited';
}

const PROPS = 'Id,Names,LoadState,ActiveState,UnitFileState,User,LimitNOFILE,LimitMEMLOCK,LimitNPROC';

/**
 * The section `tag`, or ABSENT when the host runs without systemd (sd_booted's own test: /run/systemd/system is a
 * folder). One block of `Key=value` lines per unit, in the order given, blank lines between.
 */
export function serviceLines(units: readonly string[], tag: string): string[] {
  if (!units.length) return [];
  return [
    `if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then printf '%s FILE %s\\n' "$B" ${shq(tag)}; ` +
      `systemctl show --no-pager -p ${PROPS} -- ${units.map(shq).join(' ')} 2>/dev/null; ` +
      `printf '\\n%s END %s\\n' "$B" "$?"; else printf '%s ABSENT %s\\n' "$B" ${shq(tag)}; fi`,
  ];
}

const limit = (v: string | undefined): number | 'unlimited' =>
  v === 'infinity' ? 'unlimited' : /^\d+$/.test(v ?? '') ? Number(v) : 'unlimited';

const SUFFIX = /\.(service|socket|target|mount|automount|swap|timer|path|slice|scope|device)$/;

/** The unit's full name as systemd lists it in `Names` (`opensearch` is `opensearch.service`). */
export const unitName = (u: string): string => (SUFFIX.test(u) ? u : `${u}.service`);

/**
 * The blocks back, each under every name it has (`Names`, aliases too: `sshd` is `ssh.service` on Debian): undefined
 * for a unit systemd does not know (LoadState not-found).
 */
export function parseServices(text: string): Map<string, ServiceInfo | undefined> {
  const out = new Map<string, ServiceInfo | undefined>();
  for (const block of text.split(/\n\s*\n/)) {
    const p: Record<string, string> = {};
    for (const l of block.split('\n')) if (l.includes('=')) p[l.slice(0, l.indexOf('='))] = l.slice(l.indexOf('=') + 1);
    const names = [...(p.Names ?? '').split(' '), p.Id ?? ''].filter(Boolean);
    const info: ServiceInfo | undefined =
      !p.LoadState || p.LoadState === 'not-found'
        ? undefined
        : {
            active: p.ActiveState === 'active',
            enabled: p.UnitFileState === 'enabled' || p.UnitFileState === 'enabled-runtime',
            // no User=: systemd runs the service as root
            user: p.User || 'root',
            limit_nofile: limit(p.LimitNOFILE),
            limit_memlock: limit(p.LimitMEMLOCK),
            limit_nproc: limit(p.LimitNPROC),
          };
    for (const n of names) if (!out.has(n) || info) out.set(n, info);
  }
  return out;
}
