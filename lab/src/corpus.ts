/** Seeded generator of realistic SML queries, mappings and macros: for the benchmark and property tests. */

import type { MacroDef, RawMappings } from 'smdoctor';

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];

const TEXT_KW = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };

/** Several index families whose mappings disagree on some fields. */
export function corpusMappings(): RawMappings {
  const base = {
    host: TEXT_KW,
    user: { type: 'text' },
    code: { type: 'long' },
    message: TEXT_KW,
    src_ip: { type: 'ip' },
    '@timestamp': { type: 'date' },
    event: { properties: { code: { type: 'keyword' }, action: TEXT_KW } },
    process: { properties: { name: TEXT_KW, pid: { type: 'long' } } },
  };
  const out: RawMappings = {};
  for (let d = 1; d <= 5; d++) out[`logs-2024.0${d}`] = { mappings: { properties: base } };
  for (let d = 1; d <= 3; d++)
    out[`winlogbeat-2024.0${d}`] = { mappings: { properties: { ...base, user: TEXT_KW, host: { type: 'keyword' } } } };
  out['metrics-a'] = {
    mappings: { properties: { host: { type: 'keyword' }, cpu: { type: 'float' }, code: { type: 'integer' } } },
  };
  return out;
}

export function corpusMacros(): MacroDef[] {
  return [
    { name: 'web_hosts', args: [], definition: 'host=web*' },
    { name: 'by_user', args: ['u'], definition: 'user="$u$"' },
    { name: 'failed', args: [], definition: 'event.code=4625 OR event.action=failed' },
    { name: 'in_range', args: ['f', 'lo', 'hi'], definition: '$f$>=$lo$ $f$<$hi$' },
    { name: 'suspicious', args: ['h'], definition: '`failed` host=$h$ NOT `web_hosts`' },
    { name: 'nested3', args: ['x'], definition: '(`suspicious($x$)` OR process.name=cmd.exe)' },
    { name: 'top', args: [], definition: 'stats count by host | sort -count | head 10' },
  ];
}

const SOURCES = [
  'logs-*',
  'winlogbeat-*',
  'logs-*, winlogbeat-*',
  '"logs-2024.0*"',
  'metrics-a',
  'logs-2024.01,metrics-*',
  '*',
];
const FIELDS = [
  'host',
  'user',
  'code',
  'message',
  'src_ip',
  'event.code',
  'event.action',
  'process.name',
  'process.pid',
  'host.keyword',
  'unknown_f',
  'text',
];
const VALUES = [
  'web01',
  'bob',
  '42',
  '"c d"',
  '"a | b"',
  '"x OR y"',
  '"back`quote`"',
  'web*',
  '10.0.0.*',
  '"say \\"hi\\""',
  '"search text=1"',
  'a=b',
];
const OPS = ['=', '!=', '<', '<=', '>', '>=', ' = '];
const TERMS = ['error', '"free text"', 'fail*', '"NOT this"'];
const CALLS = [
  '`web_hosts`',
  '`by_user(bob)`',
  '`failed`',
  '`in_range(code, 1, 9)`',
  '`suspicious(web01)`',
  '`nested3(db*)`',
];
const OTHER = [
  'stats count by host',
  'table host, user',
  'sort -_time',
  'head 100',
  'eval x=if(code>3, "a|b", "c")',
  'where code > 3',
  'rename host AS h',
  'dedup host',
];

function comparison(rng: Rng): string {
  const f = pick(rng, FIELDS);
  const text = rng() < 0.15 ? 'text ' : '';
  if (rng() < 0.15) return `${text}${f} IN (${pick(rng, VALUES)}, ${pick(rng, VALUES)})`;
  return `${text}${f}${pick(rng, OPS)}${pick(rng, VALUES)}`;
}

function expr(rng: Rng, depth: number, macros: boolean): string {
  const n = 1 + Math.floor(rng() * 3);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = rng();
    let p: string;
    if (macros && k < 0.25) p = pick(rng, CALLS);
    else if (depth < 2 && k < 0.35) p = `(${expr(rng, depth + 1, macros)})`;
    else if (k < 0.45) p = pick(rng, TERMS);
    else p = comparison(rng);
    if (rng() < 0.15) p = `NOT ${p}`;
    parts.push(p);
  }
  let out = parts[0];
  for (let i = 1; i < parts.length; i++) out += pick(rng, [' ', ' AND ', ' OR ', '\n  OR ']) + parts[i];
  return out;
}

/** One query; a quarter hold macro calls (some nested). */
export function genQuery(rng: Rng): string {
  const macros = rng() < 0.25;
  const cmds = [
    `source ${pick(rng, SOURCES)}`,
    `search ${expr(rng, 0, macros)}${macros ? ` ${pick(rng, CALLS)}` : ''}`,
  ];
  const more = Math.floor(rng() * 3);
  for (let i = 0; i < more; i++) cmds.push(rng() < 0.3 ? `search ${expr(rng, 0, macros)}` : pick(rng, OTHER));
  if (macros && rng() < 0.1) cmds.push('`top`');
  return cmds.join(rng() < 0.2 ? '\n| ' : ' | ');
}
