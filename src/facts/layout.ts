/** A node's folders as every layer reads them: the layout found on the host, else the inventory's (the archive's). */
import type { HostFacts, HostSettings, NodeLayout } from '../model/index.ts';

/** What the inventory alone says, when the host was not read: its folders, else the archive's `{search_home}/config`. */
export function archiveLayout(cfg: HostSettings): NodeLayout {
  const home = cfg.engineHome ?? cfg.searchHome;
  const inv = 'set in the inventory';
  return {
    engineHome: { path: home, why: cfg.engineHome ? inv : "the archive's layout" },
    engineConfig: cfg.engineConfigDir
      ? { path: cfg.engineConfigDir, why: inv }
      : { path: `${home}/config`, why: "the archive's layout" },
    webHome: { path: cfg.webHome, why: "the archive's layout" },
    webConfig: cfg.webConfigDir
      ? { path: cfg.webConfigDir, why: inv }
      : { path: `${cfg.webHome}/config`, why: "the archive's layout" },
  };
}

export const layoutOf = (h: HostFacts): NodeLayout => h.layout ?? archiveLayout(h.config);

/** Where the checks expect the node's files: `<engine>.yml`, `<engine>_dashboards.yml`, `plugins/`. */
export function nodePaths(h: HostFacts): { engineYml: string; dashboardsYml: string; plugins: string } {
  const l = layoutOf(h);
  const e = h.config.engine;
  return {
    engineYml: `${l.engineConfig.path}/${e}.yml`,
    dashboardsYml: `${l.webConfig.path}/${e}_dashboards.yml`,
    plugins: `${l.engineHome.path}/plugins`,
  };
}

/** The engine's names: its bootstrap class, its home property and the variables its launchers read. */
export function engineNames(engine: string) {
  const os = engine !== 'elasticsearch';
  return {
    mainClass: os ? 'org.opensearch.bootstrap.OpenSearch' : 'org.elasticsearch.bootstrap.Elasticsearch',
    homeProp: `-D${os ? 'opensearch' : 'es'}.path.home`,
    confVar: os ? 'OPENSEARCH_PATH_CONF' : 'ES_PATH_CONF',
    homeVar: os ? 'OPENSEARCH_HOME' : 'ES_HOME',
    webConfVar: os ? 'OSD_PATH_CONF' : 'KBN_PATH_CONF',
    webPackage: `${engine}-dashboards`,
  };
}

/**
 * The engine's own tool (`keystore`, `plugin`) of this node, each path made one shell word by `word`: from its home,
 * told where the config is when that is not `<home>/config` (the packages' launchers know /etc/<engine>; a moved
 * folder they learn only this way). `env`, not a VAR=value prefix: a sudo in front would refuse to set it itself.
 */
export function engineTool(
  cfg: HostSettings,
  layout: NodeLayout | undefined,
  tool: 'keystore' | 'plugin',
  word: (s: string) => string,
): string {
  const l = layout ?? archiveLayout(cfg);
  const home = l.engineHome.path;
  const bin = word(`${home}/bin/${cfg.engine}-${tool}`);
  const conf = l.engineConfig.path;
  return conf === `${home}/config` ? bin : `env ${engineNames(cfg.engine).confVar}=${word(conf)} ${bin}`;
}
