import { badRequest } from './errors.ts';
import { flag, type Query, type Reply } from './http.ts';
import { wildcardRe } from './fields.ts';

export interface CatColumn {
  name: string;
  aliases?: string[];
  /** Shown without h=. */
  dflt?: boolean;
  /** Numbers are right-aligned in the text table. */
  right?: boolean;
}

/** A row keyed by canonical column name; null prints as an empty cell (text) or null (json). */
export type CatRow = Record<string, string | null>;

interface Picked {
  key: string;
  col: CatColumn;
}

function find(columns: CatColumn[], token: string): CatColumn | undefined {
  return columns.find((c) => c.name === token || c.aliases?.includes(token));
}

/** h= in the order asked (wildcards allowed); the alias asked is the key; unknown names are dropped. */
export function pickColumns(columns: CatColumn[], h: string | undefined): Picked[] {
  if (!h) return columns.filter((c) => c.dflt).map((col) => ({ key: col.name, col }));
  const out: Picked[] = [];
  for (const token of h
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)) {
    if (token.includes('*')) {
      const re = wildcardRe(token);
      for (const col of columns) if (re.test(col.name)) out.push({ key: col.name, col });
      continue;
    }
    const col = find(columns, token);
    if (col) out.push({ key: token, col });
  }
  return out;
}

function compare(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const na = Number(a);
  const nb = Number(b);
  if (a !== '' && b !== '' && !Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  return a < b ? -1 : 1;
}

/** s=col[:asc|desc],… ; an unknown column is a 400 as on the engine. */
export function sortRows(columns: CatColumn[], rows: CatRow[], s: string | undefined): CatRow[] {
  if (!s) return rows;
  const keys = s.split(',').map((t) => {
    const [name, dir = 'asc'] = t.split(':');
    const col = find(columns, name);
    if (!col) throw badRequest(`Unable to sort by unknown sort key \`${name}\``, 'unsupported_operation_exception');
    return { name: col.name, sign: dir === 'desc' ? -1 : 1 };
  });
  return [...rows].sort((x, y) => {
    for (const k of keys) {
      const c = compare(x[k.name] ?? null, y[k.name] ?? null);
      if (c !== 0) return c * k.sign;
    }
    return 0;
  });
}

export function renderCatText(picked: Picked[], rows: CatRow[], header: boolean): string {
  const table: Array<Array<string>> = rows.map((r) => picked.map((p) => r[p.col.name] ?? ''));
  if (header) table.unshift(picked.map((p) => p.key));
  const widths = picked.map((_, i) => Math.max(0, ...table.map((r) => r[i].length)));
  const last = picked.length - 1;
  // Like the engine's RestTable: cells padded to their column width, one space between; a left-aligned last cell is not padded
  const pad = (cell: string, i: number) =>
    picked[i].col.right ? cell.padStart(widths[i]) : i === last ? cell : cell.padEnd(widths[i]);
  return table.map((r) => r.map(pad).join(' ') + '\n').join('');
}

/** The whole _cat response: format=json gives an array of string-valued objects, else the text table. */
export function renderCat(columns: CatColumn[], rows: CatRow[], query: Query): Reply {
  const picked = pickColumns(columns, query.h);
  const sorted = sortRows(columns, rows, query.s);
  if (query.format === 'json') {
    return { body: sorted.map((r) => Object.fromEntries(picked.map((p) => [p.key, r[p.col.name] ?? null]))) };
  }
  if (query.format && query.format !== 'txt' && query.format !== 'text')
    throw badRequest(`Unsupported format [${query.format}]`);
  return { text: renderCatText(picked, sorted, flag(query, 'v')) };
}
