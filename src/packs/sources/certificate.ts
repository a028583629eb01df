/** `certificate: SETTING_KEY`: the PEM certificate file an engine setting names (relative to the config folder). */
import { KEY_FORM, KEY_RE, keyShape } from '../load/forms.ts';
import { configRelative, readCertificate } from '../read/sources-cert.ts';
import { err, ok, setting, text } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const certificate: SourceKind<'certificate'> = {
  doc: {
    write: '`certificate: SETTING_KEY`',
    value:
      "the PEM certificate this engine setting names: `{subject, issuer, not_after, days_left, self_signed, demo}` (`demo`: one of the engine's published demo certificates)",
  },
  shape: keyShape('the engine setting naming a PEM certificate'),
  object: true,
  load: (r, at, v) => {
    const s = r.str(at, v, 'certificate', { re: KEY_RE, form: KEY_FORM });
    return s === undefined ? undefined : { kind: 'certificate', setting: s };
  },
  needs: (_, n) => void (n.certs = true),
  read: (s, c) => {
    const h = c.host!;
    const where = setting(h.engineYml, s.setting, `${h.config.engine}.yml`, h.engineEnv);
    if (!where.ok || where.value === undefined) return where;
    const rel = configRelative(String(where.value), h.config.searchHome);
    const t = text(rel === undefined ? undefined : h.packReads?.certs?.[rel], `certificate ${String(where.value)}`);
    if (!t.ok) return t;
    if (t.text === null) return err(`certificate ${String(where.value)} is missing`);
    try {
      return ok(readCertificate(t.text, c.now));
    } catch (e) {
      return err(`certificate ${String(where.value)} cannot be parsed: ${(e as Error).message}`);
    }
  },
};
