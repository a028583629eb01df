/** A pack's remedy as the planned actions `fix` already carries out: the same kinds, diffs, digests and rolling restart. */
import type { Action, HostFacts, PackRemedy } from '../../model/index.ts';
import { sha256 } from '../../base/hash.ts';
import { shWord } from '../../transport/command.ts';
import { fileBytes, setScalar, unifiedDiff } from '../../yamledit/index.ts';

export type Planned = { actions: Action[] } | { refused: string };

const privileged = (h: HostFacts, command: string) =>
  h.config.become && !/^sudo\s/.test(command) ? `sudo -n ${command}` : command;

/** The host's restart_command with `{service}` filled in, exactly as the vendor's checks plan it. */
export function restart(h: HostFacts, service: string): Action {
  const command = privileged(h, h.config.restartCommand.replaceAll('{service}', shWord(service)));
  return { type: 'restart-service', host: h.host, service, command, status: 'planned' };
}

function setYaml(h: HostFacts, web: boolean, key: string, value: string | number | boolean): Planned {
  const file = web ? h.dashboardsYml : h.engineYml;
  if (!file) return { refused: `${web ? 'the dashboards' : 'the engine'} config of ${h.host} was not read` };
  if (file.refused) return { refused: `${file.path} cannot be edited safely: ${file.refused}` };
  const edit = setScalar(file.text, key, value);
  if (!edit.ok) return { refused: `${file.path}: cannot set ${key}: ${edit.errors[0]?.message ?? 'refused'}` };
  const service = web ? `${h.config.engine}-dashboards` : h.config.engine;
  return {
    actions: [
      {
        type: 'set-yaml',
        host: h.host,
        path: file.path,
        key,
        value,
        diff: unifiedDiff(file.path, file.text, edit.text),
        base_sha256: sha256(fileBytes(file)),
        status: 'planned',
      },
      restart(h, service),
    ],
  };
}

/** A node's remedy (setting edits, plugin removal): the edit, then the restart fix rolls one node at a time. */
export function nodeRemedy(r: PackRemedy, h: HostFacts): Planned | undefined {
  if (r.kind === 'set_setting') return setYaml(h, false, r.key, r.value);
  if (r.kind === 'set_dashboards_setting') return setYaml(h, true, r.key, r.value);
  if (r.kind === 'remove_plugin') {
    const p = h.plugins.find((x) => x.name === r.name || x.folder === r.name);
    if (!p) return { actions: [] };
    if (p.refused) return { refused: `plugin folder ${p.folder} is not acted on: ${p.refused}` };
    const { searchHome, engine } = h.config;
    const command = privileged(h, `${shWord(`${searchHome}/bin/${engine}-plugin`)} remove ${shWord(p.folder)}`);
    return {
      actions: [{ type: 'remove-plugin', host: h.host, value: p.name, command, status: 'planned' }, restart(h, engine)],
    };
  }
  return undefined;
}

/** A cluster's remedy: one request for the cluster, whatever number of nodes failed. */
export function clusterRemedy(r: PackRemedy): Action | undefined {
  if (r.kind === 'put_cluster_setting')
    return {
      type: 'put-settings',
      method: 'PUT',
      api_path: '/_cluster/settings',
      body: { persistent: { [r.key]: r.value } },
      status: 'planned',
    };
  if (r.kind === 'put_index_setting')
    return {
      type: 'put-settings',
      method: 'PUT',
      api_path: `/${encodeURIComponent(r.index)}/_settings`,
      body: { [r.key]: r.value },
      status: 'planned',
    };
  return undefined;
}

/** What an action changes, as one key per thing two checks could disagree on; restarts and reads change no key. */
export function changedKeys(a: Action): string[] {
  if (a.type === 'set-yaml' || a.type === 'set-hosts') return [`${a.host} ${a.path} ${a.key}`];
  if (a.type === 'remove-plugin') return [`${a.host} plugin ${a.value}`];
  if (a.type === 'remove-keystore-entry') return [`${a.host} keystore ${a.key}`];
  if (a.type === 'put-settings' || a.type === 'put-document') {
    const flat = (o: unknown, pre: string): string[] =>
      o && typeof o === 'object' && !Array.isArray(o)
        ? Object.entries(o).flatMap(([k, v]) => flat(v, pre ? `${pre}.${k}` : k))
        : [pre];
    // `index.x` and `x` name the same index setting
    return flat(a.body, '').map((k) => `${a.api_path} ${k.replace(/^(persistent\.)?index\./, '$1')}`);
  }
  return [];
}
