/**
 * A lab at scale: the healthy topology with N stored jobs and M dashboards generated from a seed
 * (realistic SML from the shared corpus: most queries need nothing, about a fifth need work).
 */
import { corpusMacros, corpusMappings, genQuery, pick, prng, type Rng } from './corpus.ts';
import type { Scenario, ScenarioIndex } from './model.ts';
import { loadScenario } from './scenario.ts';

export interface ScaleOptions {
  jobs: number;
  dashboards: number;
  seed?: number;
  /** Share of queries from the full corpus generator (the rest are ones that need nothing). */
  mixed?: number;
}

const USERS = ['alice', 'bob', 'root', 'svc_backup', 'admin'];
const clean = (rng: Rng) =>
  `source ${pick(rng, ['logs-*', 'logs-2024.0*', 'metrics-a'])} | search code>=${Math.floor(rng() * 600)} user=${pick(rng, USERS)} | stats count by host`;

export function scaleScenario(o: ScaleOptions): Scenario {
  const r = prng(o.seed ?? 42);
  const mixed = o.mixed ?? 0.2;
  const query = () => (r() < mixed ? genQuery(r) : clean(r));
  const jobs: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < o.jobs; i++)
    jobs[`job-${i}`] = { _meta: { id: `j${i}` }, name: `generated job ${i}`, query: query() };
  const dashboards: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < o.dashboards; i++) {
    const rows = [
      {
        panels: [
          { title: 'a', viz: { options: { sme: { query: query() } } } },
          { title: 'note', viz: { type: 'markdown' } },
        ],
      },
      { panels: [{ title: 'b', viz: { options: { sme: { query: query() } } } }] },
    ];
    dashboards[`dash-${i}`] = {
      _meta: { id: `d${i}` },
      title: `generated dashboard ${i}`,
      json: i % 2 ? JSON.stringify({ rows }) : { rows },
    };
  }
  const base = loadScenario('healthy');
  const data: ScenarioIndex[] = Object.entries(corpusMappings()).map(([name, e]) => ({
    name,
    mappings: (e as { mappings: Record<string, unknown> }).mappings,
  }));
  const keep = base.indices.filter(
    (i) =>
      !['.sm_jsc_jobs', '.sm_dashboards', '.sm_sme_macros'].includes(i.name) && !data.some((d) => d.name === i.name),
  );
  return {
    ...base,
    name: 'scale',
    description: `${o.jobs} generated jobs and ${o.dashboards} generated dashboards (seed ${o.seed ?? 42})`,
    indices: [
      ...keep,
      ...data,
      { name: '.sm_jsc_jobs', docs: jobs },
      { name: '.sm_dashboards', docs: dashboards },
      { name: '.sm_sme_macros', docs: Object.fromEntries(corpusMacros().map((m, i) => [`macro-${i}`, { ...m }])) },
    ],
  };
}
