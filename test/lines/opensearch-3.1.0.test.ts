import { lineTest } from './line.ts';

await lineTest('3.1.0');
