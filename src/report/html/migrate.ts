/** `migrate jobs|dashboards --format html`: the queries to change, grouped by cluster and index, manual review first. */
import type { Entry } from '../../migrate/stored/analyse.ts';
import type { StoredKind } from '../../migrate/stored/extract.ts';
import type { ClusterScan } from '../../migrate/stored/sources.ts';
import { esc, escapeControls } from '../../text/index.ts';
import { page } from './page.ts';

// names and queries from documents: control characters shown, never obeyed, then HTML-escaped
const text = (s: string): string => esc(escapeControls(s));

/** The replacement with each inserted `text` marked; the offsets are the original's, so cutting comes before escaping. */
export function markedReplacement(replacement: string, insertions: readonly number[]): string {
  const at = insertions.map((p, k) => p + 5 * k).sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const p of at) {
    out += `${text(replacement.slice(from, p))}<ins class="text" title="inserted">text</ins>`;
    from = p + 4;
  }
  return out + text(replacement.slice(from));
}

function entryHtml(entry: Entry, scan: ClusterScan): string {
  const { q, explanation: x } = entry;
  const who = q.kind === 'jobs' ? `job ${q.ownerId}` : `dashboard ${q.ownerId} ${q.path}`;
  const r = scan.results?.get(entry);
  const head = `<h4>${entry.manual ? '<span class="st st-fail">MANUAL REVIEW</span> ' : ''}${text(who)} <span class="mut">(${text(q.doc.index)}/${text(q.doc.id)})</span>${r ? ` <b>${text(r.status)}${r.message ? `: ${text(r.message)}` : ''}</b>` : ''}</h4>`;
  const parts = [head, '<p>original</p>', `<pre class="original">${text(x.original)}</pre>`];
  if (entry.manual) {
    const fields = x.search_fields.filter((f) => f.status === 'manual_review');
    if (fields.length) parts.push(`<ul>${fields.map((f) => `<li>${text(f.message)}</li>`).join('')}</ul>`);
    if (x.errors.length)
      parts.push(
        `<ul>${x.errors.map((er) => `<li>error ${text(er.code)} at ${er.position}: ${text(er.message)}</li>`).join('')}</ul>`,
      );
    if (x.replacement !== x.original)
      parts.push(
        '<p>suggestion (not applied)</p>',
        `<pre class="replacement">${markedReplacement(x.replacement, entry.insertions)}</pre>`,
      );
  } else
    parts.push(
      '<p>replacement</p>',
      `<pre class="replacement">${markedReplacement(x.replacement, entry.insertions)}</pre>`,
    );
  return `<article class="query${entry.manual ? ' manual' : ''}" data-filter data-status="${entry.manual ? 'fail' : 'error'}">${parts.join('\n')}</article>`;
}

function clusterHtml(kind: StoredKind, s: ClusterScan, i: number): string {
  const head = `<section class="cluster" id="cluster-${i}"><h2>Cluster ${text(s.target.api.url)}</h2>${s.target.hosts?.length ? `<p class="mut">hosts ${text(s.target.hosts.join(', '))}</p>` : ''}`;
  if (!s.found) return `${head}<p><b>error:</b> ${text(s.error ?? 'not read')}</p></section>`;
  const { entries, warnings } = s.found;
  const byIndex = new Map<string, Entry[]>();
  // manual review first, then input order, per index
  for (const e of [...entries.filter((x) => x.manual), ...entries.filter((x) => !x.manual)])
    byIndex.set(e.q.doc.index, [...(byIndex.get(e.q.doc.index) ?? []), e]);
  const auto = entries.filter((e) => !e.manual).length;
  const out = [
    head,
    `<p>${auto} ${kind === 'jobs' ? 'job' : 'panel'} quer${auto === 1 ? 'y' : 'ies'} to rewrite, ${entries.length - auto} to review by hand, ${warnings.length} unreadable</p>`,
  ];
  for (const [index, list] of byIndex) out.push(`<h3>Index ${text(index)}</h3>`, ...list.map((e) => entryHtml(e, s)));
  if (warnings.length)
    out.push(
      `<h3>Unreadable</h3><ul>${warnings.map((w) => `<li>${text(`${w.index}/${w.doc_id}${w.path ? ` ${w.path}` : ''}: ${w.message}`)}</li>`).join('')}</ul>`,
    );
  if (s.error) out.push(`<p><b>error:</b> ${text(s.error)}</p>`);
  out.push('</section>');
  return out.join('\n');
}

export function renderMigrateHtml(kind: StoredKind, scans: readonly ClusterScan[]): string {
  const total = scans.reduce((n, s) => n + (s.found?.entries.length ?? 0), 0);
  const title = `smdoctor migrate ${kind} — ${total} quer${total === 1 ? 'y' : 'ies'} to change or review`;
  const body = [
    `<header><h1>${esc(title)}</h1><p class="mut">Before enabling keyword autocompletion: each query below needs the text operator (marked) or a person.</p></header>`,
    ...scans.map((s, i) => clusterHtml(kind, s, i)),
  ];
  return page(esc(title), body.join('\n'));
}
