/** `setting: KEY`: the node's `<engine>.yml` setting as the engine reads it. */
import { KEY_FORM, KEY_RE, keyShape } from '../load/forms.ts';
import { setting as readSetting } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const setting: SourceKind<'setting'> = {
  doc: {
    write: '`setting: KEY`',
    value:
      "the node's `<engine>.yml` setting as the engine reads it: nested and flat keys flattened, lists kept, `${VAR}` resolved from the engine process's environment; absent when not set",
  },
  shape: keyShape("a setting of the node's <engine>.yml, as the engine reads it"),
  load: (r, at, v) => {
    const key = r.str(at, v, 'setting', { re: KEY_RE, form: KEY_FORM });
    return key === undefined ? undefined : { kind: 'setting', key };
  },
  read: (s, c) => readSetting(c.host!.engineYml, s.key, `${c.host!.config.engine}.yml`, c.host!.engineEnv),
};
