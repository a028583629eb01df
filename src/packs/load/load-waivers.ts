/** A waivers file (`smdoctor_waivers: 1`) checked and turned into `Waiver`s, each knowing where it was written. */
import { ANY_CHECK_ID_RE, type Waiver } from '../../model/index.ts';
import { Reader } from './load-shape.ts';
import type { Positioned } from './load-yaml.ts';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day: 2027-02-30 is refused, not rolled over. */
const isDay = (s: string): boolean => DATE_RE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

export function readWaivers(doc: Positioned): Waiver[] | undefined {
  const r = new Reader(doc);
  const o = r.map([], doc.value, 'a waivers file', ['smdoctor_waivers', 'waivers'], ['smdoctor_waivers', 'waivers']);
  if (!o) return undefined;
  if ('smdoctor_waivers' in o && o.smdoctor_waivers !== 1)
    r.bad(
      ['smdoctor_waivers'],
      `smdoctor_waivers ${JSON.stringify(o.smdoctor_waivers)} is not a format this smdoctor reads (1)`,
    );
  const waivers = r.list(['waivers'], o.waivers, 'waivers', (p, v): Waiver | undefined => {
    const w = r.map(p, v, 'a waiver', ['check', 'hosts', 'clusters', 'reason', 'expires'], ['check', 'reason']);
    if (!w) return undefined;
    const check =
      'check' in w
        ? r.str([...p, 'check'], w.check, 'check', {
            re: ANY_CHECK_ID_RE,
            form: 'a check id (pack/id or a vendor check id)',
          })
        : undefined;
    const reason = 'reason' in w ? r.str([...p, 'reason'], w.reason, 'reason') : undefined;
    const names = (k: 'hosts' | 'clusters') => r.list([...p, k], w[k], k, (ip, x) => r.str(ip, x, `an item of ${k}`));
    const hosts = 'hosts' in w ? names('hosts') : undefined;
    const clusters = 'clusters' in w ? names('clusters') : undefined;
    let expires: string | undefined;
    if ('expires' in w) {
      expires = r.str([...p, 'expires'], w.expires, 'expires');
      if (expires !== undefined && !isDay(expires))
        expires = r.bad([...p, 'expires'], `expires ${JSON.stringify(expires)} is not a day (YYYY-MM-DD)`);
    }
    if (check === undefined || reason === undefined) return undefined;
    return {
      check,
      reason,
      ...(hosts ? { hosts } : {}),
      ...(clusters ? { clusters } : {}),
      ...(expires ? { expires } : {}),
      at: `${doc.file}:${doc.lineOf(p)}`,
    };
  });
  return doc.problems.length ? undefined : waivers;
}
