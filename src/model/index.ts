/** The types every layer shares: the facts audit gathers, the plan fix carries out, the report both print. */
export * from './access.ts';
export * from './checks.ts';
export * from './facts.ts';
export * from './plan.ts';
export * from './report.ts';
export * from './pack.ts';
export * from './engine-tools.ts';
export * from './report-shape.ts';
export * from './summary.ts';
