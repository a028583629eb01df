/**
 * docs/packs.md's tables of sources and matchers, from the registries' `doc` lines (src/packs/sources and
 * src/packs/matchers): written between their markers by `npm run schema`, checked by test/unit/packs/schema.test.ts.
 */
import { MATCHER_KINDS, matcherKind } from '../src/packs/matchers/registry.ts';
import { SOURCE_KINDS, sourceKind } from '../src/packs/sources/registry.ts';

const cell = (s: string) => s.replaceAll('|', '\\|');

function sources(): string {
  const rows = SOURCE_KINDS.map((k) => {
    const d = sourceKind(k).doc;
    return `| ${cell(d.write)} | ${cell(d.value)} |`;
  });
  return ['| source | value |', '|---|---|', ...rows].join('\n');
}

function matchers(): string {
  const rows = MATCHER_KINDS.map((k) => {
    const m = matcherKind(k);
    const absent = m.absent === 'judged' ? (m.doc.absent ?? 'see the matcher') : m.absent;
    return `| ${cell(m.doc.write)} | ${cell(m.doc.holds)} | ${cell(absent)} |`;
  });
  return ['| matcher | holds when the value… | on an absent value |', '|---|---|---|', ...rows].join('\n');
}

/** The text with each generated table between `<!-- NAME: … -->` and `<!-- end NAME -->` replaced. */
export function packDocs(text: string): string {
  const tables: Record<string, string> = { sources: sources(), matchers: matchers() };
  let out = text;
  for (const [name, table] of Object.entries(tables)) {
    const re = new RegExp(`(<!-- ${name}: [^>]*-->\\n)[\\s\\S]*?(<!-- end ${name} -->)`);
    if (!re.test(out)) throw new Error(`docs/packs.md has no <!-- ${name}: … --> … <!-- end ${name} --> markers`);
    out = out.replace(re, (_, a: string, b: string) => `${a}${table}\n${b}`);
  }
  return out;
}
