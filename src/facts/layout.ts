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
