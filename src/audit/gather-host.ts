/** Everything read from one host over its one SSH connection: configs and plugin descriptors in one command, the keystore only where it matters. */
import { errText } from '../base/errors.ts';
import type { HostConfig } from '../inventory/types.ts';
import type { Transport } from '../transport/types.ts';
import {
  batchCommand,
  batchPaths,
  folderFromHex,
  newBoundary,
  parseBatch,
  parseEnviron,
  parseProperties,
  unsafeFolder,
} from './batch.ts';
import { decodeConfig } from '../yamledit/index.ts';
import { layoutProbe, parseLayout } from './layout.ts';
import { archiveLayout, engineTool } from '../facts/layout.ts';
import { shWord } from '../transport/command.ts';
import { findRow } from './match.ts';
import {
  SM_PLUGINS,
  type ApiFacts,
  type HostFacts,
  type NodeLayout,
  type PluginOnDisk,
  NO_KEYSTORE,
} from '../model/index.ts';
import { getDotted, parsedFile, parseYml, secretValues } from '../facts/yml.ts';
import { configRoles, isMasterRole, splitRoles } from '../facts/roles.ts';
import { DEFAULT_MAX_FILE_BYTES, mib } from '../base/limits.ts';
import { isSecretKey, rememberSecret } from '../text/index.ts';
import { hostReadsNeeded, isPackTag, packBatchLines, packReadsOf, type PackNeeds } from '../packs/index.ts';
import { keptFacts, remember, type AuditMemo } from './memo.ts';

// check 4's plugins: their presence on a master is why its keystore is read
const SCHEDULER_PLUGINS: readonly string[] = SM_PLUGINS;

export function emptyHostFacts(cfg: HostConfig, reachable: boolean, error?: string): HostFacts {
  return {
    host: cfg.name,
    config: cfg,
    reachable,
    ...(error ? { error } : {}),
    engineYml: null,
    dashboardsYml: null,
    plugins: [],
    keystore: null,
    isWeb: cfg.inDashboardsGroup,
    engineEnv: null,
  };
}

/** Runs the batched read and parses it into HostFacts (keystore left null). */
export async function readHost(
  transport: Transport,
  cfg: HostConfig,
  timeout: number,
  boundary = newBoundary(),
  packs?: PackNeeds,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
): Promise<HostFacts> {
  const paths = batchPaths(layoutProbe(cfg));
  // the packs' reads ride in the same command: no connection or round trip of their own
  const extra = packs && hostReadsNeeded(packs) ? packBatchLines(packs, cfg, maxBytes) : [];
  // bytes, not UTF-8: a file's text is decoded per file, so what is edited later is exactly what was read
  const res = await transport.exec(batchCommand(paths, boundary, maxBytes, extra), {
    privileged: true,
    timeout,
    binary: true,
  });
  const out = parseBatch(res.stdout, boundary, maxBytes);
  const facts = emptyHostFacts(cfg, true);
  if (packs)
    facts.packReads = packReadsOf(
      packs,
      out.sections.filter((s) => isPackTag(s.tag)),
      cfg,
    );
  const problems: string[] = [];
  const layout = parseLayout(out.sections.find((s) => s.tag === 'layout')?.text ?? null);
  if (layout) facts.layout = layout;
  const where = layout ?? archiveLayout(cfg);
  if (!out.complete)
    problems.push(`reading files did not finish (exit ${res.code}${res.stderr ? `: ${res.stderr.trim()}` : ''})`);
  for (const s of out.sections) {
    const unreadable = s.readCode !== undefined;
    if (s.tag === 'engine' || s.tag === 'dashboards') {
      const path =
        s.tag === 'engine'
          ? `${where.engineConfig.path}/${cfg.engine}.yml`
          : `${where.webConfig.path}/${cfg.engine}_dashboards.yml`;
      if (unreadable) problems.push(`${path} could not be read`);
      else if (s.tooLarge)
        problems.push(
          `${path} is too large to audit (more than ${mib(maxBytes)}; SMDOCTOR_MAX_FILE_MIB raises the limit)`,
        );
      else if (s.text !== null)
        facts[s.tag === 'engine' ? 'engineYml' : 'dashboardsYml'] = {
          path,
          ...decodeConfig(Buffer.from(s.text, 'latin1')),
        };
    } else if (s.tag === 'env') {
      // optional: unread (not root, too large), the placeholders of the config stay unknown; nothing is broken
      if (!unreadable && !s.tooLarge && s.text !== null) facts.engineEnv = engineEnv(s.text);
    } else if (s.tag === 'webenv') {
      if (!unreadable && !s.tooLarge && s.text !== null) facts.webEnv = engineEnv(s.text);
    } else if (s.tag.startsWith('plugin ')) {
      const { name: folder, valid } = folderFromHex(s.tag.slice('plugin '.length));
      const props =
        s.text !== null && !unreadable ? parseProperties(Buffer.from(s.text, 'latin1').toString('utf8')) : {};
      const p: PluginOnDisk = { folder, name: props.name || folder };
      if (props.version) p.version = props.version;
      const built = props[`${cfg.engine}.version`] ?? props['opensearch.version'] ?? props['elasticsearch.version'];
      if (built) p.engineVersion = built;
      const refused = unsafeFolder(folder, valid);
      if (refused) p.refused = refused;
      if (s.tooLarge) problems.push(`the descriptor of plugin folder ${folder} is too large to audit`);
      facts.plugins.push(p);
    }
  }
  facts.plugins.sort((a, b) => a.folder.localeCompare(b.folder));
  rememberConfigSecrets(facts);
  facts.isWeb = cfg.inDashboardsGroup || facts.dashboardsYml !== null;
  if (problems.length) facts.error = problems.join('; ');
  return facts;
}

/** The engine's (or web application's) environment; a secret-named variable's value is remembered, so every report blanks it. */
function engineEnv(latin1: string): Record<string, string> {
  const env = parseEnviron(Buffer.from(latin1, 'latin1'));
  for (const [k, v] of Object.entries(env)) if (isSecretKey(k)) rememberSecret(v);
  return env;
}

/** Every secret-named setting's value in the configs is blanked in every report, whichever check prints it. */
function rememberConfigSecrets(facts: HostFacts): void {
  if (facts.engineYml)
    for (const v of secretValues(parsedFile(facts.engineYml).doc, facts.engineEnv)) rememberSecret(v);
  if (facts.dashboardsYml) for (const v of secretValues(parsedFile(facts.dashboardsYml).doc, null)) rememberSecret(v);
}

/** A master (running or configured) that carries a job-scheduler plugin (on disk or loaded): only there is the keystore's answer needed. */
export function keystoreMatters(facts: HostFacts, api: ApiFacts): boolean {
  const doc = (facts.engineYml ? parsedFile(facts.engineYml) : parseYml('')).doc;
  const nodeName = getDotted(doc, 'node.name');
  const row = findRow(api.nodes, {
    host: facts.host,
    address: facts.config.address,
    ...(nodeName !== undefined ? { nodeName: String(nodeName) } : {}),
  });
  const runningMaster = row ? isMasterRole(splitRoles(row['node.roles'])) : false;
  const roles = configRoles(doc, facts.engineEnv);
  // roles unknown from the file: the keystore may matter, so it is asked
  const configMaster = facts.engineYml !== null && (roles.state !== 'value' || isMasterRole(roles.value));
  if (!runningMaster && !configMaster) return false;
  const onDisk = facts.plugins.some((p) => SCHEDULER_PLUGINS.includes(p.name) || SCHEDULER_PLUGINS.includes(p.folder));
  const loaded =
    row !== undefined && api.plugins.some((p) => p.name === row.name && SCHEDULER_PLUGINS.includes(p.component ?? ''));
  return onDisk || loaded;
}

export function keystoreListCommand(cfg: HostConfig, layout?: NodeLayout): string {
  return `${engineTool(cfg, layout, 'keystore', shWord)} list`;
}

/** `<engine>-keystore list` as the engine user; exit 65 means no keystore, so no entries. */
export async function readKeystore(
  t: Transport,
  cfg: HostConfig,
  timeout: number,
  layout?: NodeLayout,
): Promise<{ keystore: string[] | null; error?: string }> {
  const res = await t.exec(keystoreListCommand(cfg, layout), { asUser: cfg.engineUser, timeout });
  if (res.code === NO_KEYSTORE) return { keystore: [] };
  if (res.code !== 0)
    return { keystore: null, error: `${keystoreListCommand(cfg, layout)} exited ${res.code}: ${res.stderr.trim()}` };
  return {
    keystore: res.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  };
}

export type Connect = (cfg: HostConfig) => Promise<Transport>;

/**
 * One host, one connection: read, ask the keystore if it matters, close. Never rejects: failures become reachable
 * false. The cluster's API facts may still be on their way: they are awaited only after the read, when the keystore
 * decision needs them. The close is started, not awaited: the host's facts are complete once the command has exited,
 * and the server's goodbye would hold the fork slot one more round trip (the fleet session awaits it at its end).
 */
export async function gatherHost(
  cfg: HostConfig,
  connect: Connect,
  api: ApiFacts | PromiseLike<ApiFacts>,
  timeout: number,
  packs?: PackNeeds,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
  /** serve: the facts kept from the last cycle, reused when nothing they came from changed. */
  memo?: AuditMemo,
): Promise<HostFacts> {
  let t: Transport;
  try {
    t = await connect(cfg);
  } catch (err) {
    memo?.hosts.delete(cfg.name);
    return emptyHostFacts(cfg, false, errText(err));
  }
  try {
    // a pack's host reads (sysctls, sockets, the process's limits) have no stamps to watch: read every cycle
    const watch = memo && packs && hostReadsNeeded(packs) ? undefined : memo;
    if (memo && !watch) memo.hosts.delete(cfg.name);
    const kept = watch && (await keptFacts(watch, cfg, t, api, timeout));
    if (kept) return kept;
    const listKeystore = (layout?: NodeLayout) =>
      readKeystore(t, cfg, timeout, layout).catch((err: unknown) => ({ keystore: null, error: errText(err) }));
    // a pack that reads the keystore reads it on every host: its command (a JVM start) runs beside the batched read on
    // a second channel of the same connection, so it adds no round trip
    // (only where the inventory names the home: elsewhere the tool is known once the read has found it)
    const homeKnown = cfg.engineHome !== undefined || cfg.searchHomeGiven === true;
    const early = packs?.keystore && homeKnown ? listKeystore() : undefined;
    const facts = await readHost(t, cfg, timeout, undefined, packs, maxBytes);
    if (early || packs?.keystore || keystoreMatters(facts, await api)) {
      const ks = await (early ?? listKeystore(facts.layout));
      facts.keystore = ks.keystore;
      if (ks.error) facts.error = facts.error ? `${facts.error}; ${ks.error}` : ks.error;
    }
    if (watch) await remember(watch, cfg, t, facts, api, timeout);
    return facts;
  } catch (err) {
    memo?.hosts.delete(cfg.name);
    return emptyHostFacts(cfg, false, errText(err));
  } finally {
    t.close().catch(() => undefined);
  }
}
