/**
 * `node --import ./test/helpers/compiled.mjs`: the product and the lab run from their build (dist/, lab/dist/), as
 * users run them, while the tests themselves stay TypeScript. `npm test` builds first; a process then starts in about
 * half the time, since tsx no longer compiles src/ and lab/src/ in every test file (and the lab's daemon is plain JS).
 */
import { register } from 'node:module';

register('./compiled-hooks.mjs', import.meta.url);
