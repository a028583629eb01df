/** `dashboards_setting: KEY`: the same from `<engine>_dashboards.yml`, on the hosts of the web application. */
import { KEY_FORM, KEY_RE, keyShape } from '../load/forms.ts';
import { setting } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const dashboardsSetting: SourceKind<'dashboards_setting'> = {
  doc: { write: '`dashboards_setting: KEY`', value: 'the same from `<engine>_dashboards.yml`, on the web hosts' },
  shape: keyShape('a setting of <engine>_dashboards.yml'),
  web: true,
  load: (r, at, v) => {
    const key = r.str(at, v, 'dashboards_setting', { re: KEY_RE, form: KEY_FORM });
    return key === undefined ? undefined : { kind: 'dashboards_setting', key };
  },
  read: (s, c) => setting(c.host!.dashboardsYml, s.key, `${c.host!.config.engine}_dashboards.yml`, null),
};
