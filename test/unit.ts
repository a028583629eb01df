/**
 * The unit tier in one process: every test/unit and lab/test/unit file imported here, after a guard that fails any
 * test that starts a process or opens a socket (those belong in test/integration). `npm run test:unit`; arguments
 * (paths or parts of them) narrow it to some files.
 */
import t from 'tap';
import { guardUnitTier } from './helpers/unit-guard.ts';
import { unitFiles } from './helpers/tiers.ts';

guardUnitTier();
const files = await unitFiles(process.argv.slice(2));
// the root would end between two imports; this first test holds it open until every file has queued its tests
t.test('the unit files load', async (t) => {
  for (const file of files) await import(file);
  t.ok(files.length > 0, `${files.length} unit files`);
});
