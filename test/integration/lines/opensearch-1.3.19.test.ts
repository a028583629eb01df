import { lineTest } from '../../helpers/lines/line.ts';

await lineTest('1.3.19');
