/** One lab for a whole test file, with the migrate command's view of its cluster; stopped at teardown. */
import t from 'tap';
import { startLab, type Lab } from '../../lab/src/index.ts';
import { openCluster, type ClusterTarget } from '../../src/migrate/cluster.ts';

export function labForFile(scenario: string): { readonly lab: Lab; readonly target: ClusterTarget } {
  const shared = {} as { lab: Lab; target: ClusterTarget };
  t.before(async () => {
    shared.lab = await startLab({ scenario });
    shared.target = await openCluster(
      { inventory: [shared.lab.inventoryPath], timeout: 60 },
      process.cwd(),
      {},
      () => undefined,
    );
  });
  t.teardown(async () => {
    await shared.target?.api.close();
    await shared.lab?.stop();
  });
  return shared;
}
