import { lineTest } from '../../helpers/lines/line.ts';

await lineTest('2.19.1');
