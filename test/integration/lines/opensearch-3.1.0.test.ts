import { lineTest } from '../../helpers/lines/line.ts';

await lineTest('3.1.0');
