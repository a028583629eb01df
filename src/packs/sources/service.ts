/** `service: UNIT`: a systemd unit as `systemctl show` reports it, one call per host for every unit. */
import * as v from 'valibot';
import { parseServices, serviceLines, unitName, UNIT_RE } from '../host/service.ts';
import { err, hostRead, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const service: SourceKind<'service'> = {
  doc: {
    write: '`service: UNIT`',
    value:
      'the systemd unit: `{active, enabled, user, limit_nofile, limit_memlock, limit_nproc}` (limits a number or `unlimited`); absent when systemd does not know it; a host without systemd gives `error`',
  },
  shape: v.pipe(v.string(), v.regex(UNIT_RE), v.description('a systemd unit (opensearch, opensearch.service)')),
  object: true,
  load: (r, at, x) => {
    const unit = r.str(at, x, 'service', { re: UNIT_RE, form: 'a systemd unit name (opensearch.service)' });
    return unit === undefined ? undefined : { kind: 'service', unit };
  },
  host: { key: (s) => s.unit, lines: (units, _, tag) => serviceLines(units, tag('all')) },
  read: (s, c) => {
    const r = hostRead(c, 'service', 'all');
    if (!r) return err(`service ${s.unit} was not read (the batched command did not finish)`);
    if (r.error) return err(`systemctl show failed: ${r.error}`);
    if (r.text === null) return err('the host does not run systemd (no /run/systemd/system), so it has no units');
    return ok(parseServices(r.text).get(unitName(s.unit)));
  },
};
