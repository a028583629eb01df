/** The lab package as the CLI loads it, by name: the compiler holds it to the interface the CLI reads it by. */
import t from 'tap';
import * as lab from '@smdoctor/lab';
import * as labDefault from '@smdoctor/lab/default';
import { importLab, requireLab, type LabDefaultModule, type LabModule } from '../../../src/cli/lab-package.ts';

const asLoaded: LabModule = lab;
const defaultAsLoaded: LabDefaultModule = labDefault;

t.test('the installed workspace package is the lab the CLI loads', async (t) => {
  t.equal(await requireLab(), asLoaded);
  t.equal(await importLab('default'), defaultAsLoaded);
  t.equal(defaultAsLoaded.upLabInventory(t.testdir()), null, 'no lab up in an empty directory');
});
