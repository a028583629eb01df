#!/usr/bin/env node
// The unit tier: `npm run test:unit [-- PART ...]` runs test/unit.ts under tap; each PART (a path or a part of one)
// narrows it to the unit files whose path holds it. tap keeps its own arguments, so each one goes as a --test-arg.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const parts = process.argv.slice(2);
const tap = join(root, 'node_modules/.bin/tap');
const run = spawnSync(tap, ['test/unit.ts', ...parts.map((p) => `--test-arg=${p}`)], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
