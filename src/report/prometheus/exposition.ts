/** The Prometheus text exposition format (0.0.4), as node_exporter's textfile collector reads it: HELP and TYPE per family. */

export type Labels = Record<string, string>;

export interface Family {
  /** snake_case, base units, `_total` only on counters. */
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  samples: Array<{ labels?: Labels; value: number }>;
}

// label values escape backslash, double quote and newline; HELP escapes backslash and newline
const labelValue = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const helpText = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function sample(name: string, labels: Labels | undefined, value: number): string {
  const l = Object.entries(labels ?? {});
  for (const [k] of l) if (!LABEL.test(k) || k.startsWith('__')) throw new Error(`bad label name ${k}`);
  const text = l.length ? `{${l.map(([k, v]) => `${k}="${labelValue(v)}"`).join(',')}}` : '';
  const num = Number.isFinite(value) ? String(value) : Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf';
  return `${name}${text} ${num}`;
}

/** Families in order; a family with no sample keeps its HELP and TYPE so the metric is known to exist. */
export function exposition(families: readonly Family[]): string {
  const out: string[] = [];
  for (const f of families) {
    if (!NAME.test(f.name)) throw new Error(`bad metric name ${f.name}`);
    out.push(`# HELP ${f.name} ${helpText(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    // one series per label set: the same labels twice would be rejected by the scraper
    const seen = new Set<string>();
    for (const s of f.samples) {
      const line = sample(f.name, s.labels, s.value);
      const key = line.slice(0, line.lastIndexOf(' '));
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(line);
    }
  }
  return `${out.join('\n')}\n`;
}

/** The families every run writes: when it ran and how long it took. */
export function runFamilies(mode: string, generatedAt: string | undefined, durationSeconds?: number): Family[] {
  const at = Date.parse(generatedAt ?? '');
  return [
    {
      name: 'smdoctor_last_run_timestamp_seconds',
      help: 'When the run finished, in seconds since the epoch.',
      type: 'gauge',
      samples: Number.isNaN(at) ? [] : [{ labels: { mode }, value: at / 1000 }],
    },
    {
      name: 'smdoctor_run_duration_seconds',
      help: 'How long the run took (for audit: gathering, correlating and checking the whole fleet).',
      type: 'gauge',
      samples:
        durationSeconds === undefined ? [] : [{ labels: { mode }, value: Math.round(durationSeconds * 1000) / 1000 }],
    },
  ];
}
