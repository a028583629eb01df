/**
 * Every source kind and its module. Adding a source: a module beside this one (see kind.ts, and CONTRIBUTING.md) and
 * its line here; its kind in model/pack.ts's PackSource. The order is the order the loader's messages list them in.
 */
import type { PackSource, PackSourceKind } from '../../model/index.ts';
import type { SourceKind, SourceRegistry } from './kind.ts';
import { api } from './api.ts';
import { certificate } from './certificate.ts';
import { certificates } from './certificates.ts';
import { dashboardsSetting } from './dashboards-setting.ts';
import { disk } from './disk.ts';
import { engineProcess } from './engine-process.ts';
import { engineVersion } from './engine-version.ts';
import { file } from './file.ts';
import { fileModified } from './file-modified.ts';
import { jvmOption } from './jvm-option.ts';
import { keystore } from './keystore.ts';
import { memory } from './memory.ts';
import { plugins } from './plugins.ts';
import { setting } from './setting.ts';
import { settingKeys } from './setting-keys.ts';
import { shardUsage } from './shard-usage.ts';
import { sysctl } from './sysctl.ts';
import { path } from './path.ts';
import { service } from './service.ts';
import { pkg } from './package.ts';
import { listening } from './listening.ts';
import { user } from './user.ts';
import { group } from './group.ts';
import { mount } from './mount.ts';

export const SOURCES: SourceRegistry = {
  setting,
  dashboards_setting: dashboardsSetting,
  jvm_option: jvmOption,
  file,
  certificate,
  sysctl,
  engine_process: engineProcess,
  api,
  file_modified: fileModified,
  plugins,
  keystore,
  memory,
  certificates,
  setting_keys: settingKeys,
  engine_version: engineVersion,
  disk,
  shard_usage: shardUsage,
  path,
  service,
  package: pkg,
  listening,
  user,
  group,
  mount,
};

export const SOURCE_KINDS = Object.keys(SOURCES) as PackSourceKind[];

/** One source's module, whatever its kind (the registry's type keeps kind and module together). */
export const sourceKind = (k: PackSourceKind): SourceKind<PackSourceKind> => SOURCES[k] as SourceKind<PackSourceKind>;

/** Whether this source is read once per cluster (`each: cluster`) or per node. */
export function perCluster(s: PackSource): boolean {
  const c = sourceKind(s.kind).cluster;
  return typeof c === 'function' ? c(s) : c === true;
}
