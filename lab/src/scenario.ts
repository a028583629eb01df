/** Which scenario a name means: a shipped file, a path, or the generated fleet. */
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from 'smdoctor';
import type { Scenario } from './model.ts';
import { fleetScenario } from './fleet.ts';
import { parseScenario, SCENARIO_DIR } from './scenario-parse.ts';

export function scenarioNames(): string[] {
  return [
    'fleet',
    ...readdirSync(SCENARIO_DIR)
      .filter((f) => f.endsWith('.yml'))
      .map((f) => f.slice(0, -4)),
  ].sort();
}

/** A shipped name (`broken`, `fleet`, a check id…) or a path to a scenario YAML file. */
export function loadScenario(nameOrFile: string, env: NodeJS.ProcessEnv = process.env): Scenario {
  if (nameOrFile === 'fleet') {
    return fleetScenario(
      envInt(env.SMDOCTOR_LAB_CLUSTERS, 'SMDOCTOR_LAB_CLUSTERS', 2),
      envInt(env.SMDOCTOR_LAB_NODES, 'SMDOCTOR_LAB_NODES', 3),
    );
  }
  const shipped = join(SCENARIO_DIR, `${nameOrFile}.yml`);
  const file = /^[a-z0-9-]+$/.test(nameOrFile) && existsSync(shipped) ? shipped : resolve(nameOrFile);
  if (!existsSync(file)) {
    throw new InputError(`unknown scenario '${nameOrFile}': not a file, and not one of ${scenarioNames().join(', ')}`);
  }
  return parseScenario(readFileSync(file, 'utf8'), file);
}

function envInt(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InputError(`${name} must be a positive integer, got '${v}'`);
  return n;
}
