import { lineTest } from './line.ts';

await lineTest('1.3.19');
