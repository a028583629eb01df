import { lineTest } from './line.ts';

await lineTest('2.19.1');
