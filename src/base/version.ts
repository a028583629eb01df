import { readFileSync } from 'node:fs';

export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/** Shape of the JSON report: 1 was 0.1's; 2 adds plan pins, cluster actions and `generated_at`; 3 (0.4) pack checks
 * (`pack/id`, severity, title, why, docs) and the status `waived`. A plan of another shape is refused. */
export const SCHEMA_VERSION = 3;
