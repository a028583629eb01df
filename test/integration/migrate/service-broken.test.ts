import t from 'tap';
import { labForFile } from '../../helpers/lab.ts';
import { agreesWithLocal } from '../../helpers/migrate/service.ts';

// The broken scenario's stored queries (macros, errors, several panels) through the lab's service and --source local.
const shared = labForFile('broken');

t.test('broken: the three endpoints agree with --source local on every stored query', async (t) => {
  await agreesWithLocal(t, shared.target, shared.lab.inventoryPath);
});
