/** The page around an HTML report: one file, its style and script inline, and a policy that forbids any request. */
import { createHash } from 'node:crypto';
import { esc } from '../../text/index.ts';

const CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--mut:#5f6368;--line:#d0d4d9;--card:#f6f8fa;--add:#e6ffec;--del:#ffebe9;--mark:#fff3b0}
@media (prefers-color-scheme:dark){:root{--bg:#121416;--fg:#e6e6e6;--mut:#a0a6ad;--line:#3a3f45;--card:#1c1f23;--add:#12361f;--del:#45181b;--mark:#4a4000}}
body{background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1360px;padding:1rem 1.5rem}
h1{font-size:1.4rem}h2{font-size:1.2rem;border-bottom:1px solid var(--line);padding-bottom:.2rem;margin-top:2rem}h3{font-size:1rem;margin-top:1.2rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:var(--card)}code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12.5px}
pre{background:var(--card);border:1px solid var(--line);padding:.5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.st{display:inline-block;min-width:3.6em;text-align:center;font-weight:700;border-radius:3px;padding:0 .3em;color:#fff}
.st-pass{background:#2e7d32}.st-fail{background:#c62828}.st-error{background:#8e24aa}.st-skip{background:#757575}.st-waived{background:#ef6c00}
.add{background:var(--add)}.del{background:var(--del)}.hunk{color:var(--mut)}
ins.text{background:var(--mark);text-decoration:underline;font-weight:700}
svg{max-width:100%;height:auto}svg text{font-family:system-ui,sans-serif;fill:var(--fg)}svg .box{fill:var(--card);stroke:var(--line)}
svg .bad{fill:#c62828;font-weight:700}svg .mut{fill:var(--mut)}svg .cell-text{fill:#fff;font-weight:700}
.filters{margin:.5rem 0;padding:.4rem;background:var(--card);border:1px solid var(--line)}
.strip{display:inline-flex;gap:2px;vertical-align:middle}.strip i{display:inline-block;width:10px;height:14px}
.strip .st-pass{background:#2e7d32}.strip .st-fail{background:#c62828}.strip .st-error{background:#8e24aa}.strip .st-skip{background:#757575}.strip .st-waived{background:#ef6c00}
.mut{color:var(--mut)}.manual{border-left:4px solid #ef6c00;padding-left:.5rem}
.c.st-pass{background:#c8e6c9;color:#1b5e20}.c.st-skip{background:#e0e0e0;color:#424242}
.c.st-fail,.c.st-error,.c.st-waived{color:#fff}.c.none{color:var(--mut)}
.matrix-wrap{display:inline-block;max-width:100%;box-sizing:border-box;overflow:auto;max-height:80vh;border:1px solid var(--line);margin:.5rem 0;background:var(--bg)}
table.matrix{border-collapse:separate;border-spacing:0;width:auto;margin:0;font-size:12px}
table.matrix th,table.matrix td{border:0;border-right:1px solid var(--line);border-bottom:1px solid var(--line);padding:0}
table.matrix thead th{position:sticky;background:var(--card);z-index:2;font-weight:600}
table.matrix thead tr:first-child th{top:0;height:24px;box-sizing:border-box;padding:2px 6px;text-align:center;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:1px}
table.matrix thead tr.ids th{top:24px;vertical-align:bottom;padding:6px 2px 4px}
table.matrix th.col span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-size:12px;line-height:16px;display:inline-block}
table.matrix th.corner{left:0;z-index:4;vertical-align:bottom;text-align:left;padding:6px 8px;max-width:none}
table.matrix th.cl{position:sticky;left:0;z-index:1;background:var(--bg);font-weight:500;text-align:left;padding:2px 8px;white-space:nowrap;max-width:18rem;overflow:hidden;text-overflow:ellipsis}
table.matrix th.cl a{color:inherit;text-decoration:none}table.matrix .g0{border-left:2px solid var(--mut)}table.matrix th.col small{font-size:12px}
table.matrix td.c{width:22px;min-width:22px;height:22px;text-align:center;font-weight:700;font-size:12px}
table.matrix.look td.c{width:28px;min-width:28px}
.legend .c{display:inline-block;width:18px;text-align:center;font-weight:700;border-radius:2px}
table.tally{width:100%}table.tally .n{text-align:right}table.tally .n,table.tally tr>th:first-child{white-space:nowrap;width:1%}table.tally td.n{font-variant-numeric:tabular-nums}table.tally .zero{color:var(--mut)}table.tally th .c{display:inline-block;width:16px;text-align:center;border-radius:2px}
.hot-fail{color:#c62828;font-weight:700}.hot-error{color:#8e24aa;font-weight:700}.hot-waived{color:#ef6c00;font-weight:700}
ul.failing{margin:0;padding-left:1.1rem;font-size:12.5px}p.good{color:#2e7d32;font-weight:600}
details.passes{margin:.5rem 0}details.passes>summary{cursor:pointer;font-weight:600;padding:.2rem 0}
@media print{.filters{display:none}body{max-width:none;background:#fff;color:#000}section,figure,tr{break-inside:avoid}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}.matrix-wrap{max-height:none;overflow:visible}table.matrix thead th,table.matrix th.cl{position:static}
pre{white-space:pre-wrap}h2{break-before:auto}a{color:#000;text-decoration:none}}
`;

// filters hide rows that do not match and open what is collapsed to find them; "only what does not pass" keeps the
// passes collapsed (the page's own default when anything fails); without script the bar stays hidden
const SCRIPT = `
(function(){var bar=document.getElementById('filters');if(!bar)return;bar.hidden=false;
var q=document.getElementById('q'),only=document.getElementById('only-bad');
function apply(){var t=q.value.toLowerCase(),bad=only.checked;
document.querySelectorAll('details.passes').forEach(function(d){d.open=!!t||!bad;});
document.querySelectorAll('[data-filter]').forEach(function(el){
var ok=(!t||el.textContent.toLowerCase().indexOf(t)>=0)&&(!bad||!!t||el.getAttribute('data-status')!=='pass'||!!el.closest('details'));
el.hidden=!ok;});}
q.addEventListener('input',apply);only.addEventListener('change',apply);})();
`;

const hash = (s: string): string => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** No request of any kind: nothing but this page's own style and script may run, and nothing may be fetched. */
export const CSP = `default-src 'none'; style-src ${hash(CSS)}; script-src ${hash(SCRIPT)}; form-action 'none'; base-uri 'none'`;

const filters = (
  onlyBad: boolean,
): string => `<div id="filters" class="filters" hidden><label>Filter <input id="q" type="search" autocomplete="off"></label>
<label><input id="only-bad" type="checkbox"${onlyBad ? ' checked' : ''}> only what does not pass</label></div>`;

/** A whole document: title and body are HTML already escaped by the caller. */
export function page(title: string, body: string, opts: { filters?: boolean; onlyBad?: boolean } = {}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<style>${CSS}</style>
</head>
<body>
${opts.filters === false ? '' : filters(opts.onlyBad ?? false)}
${body}
<script>${SCRIPT}</script>
</body>
</html>
`;
}
