/** The page around an HTML report: one file, its style and script inline, and a policy that forbids any request. */
import { createHash } from 'node:crypto';
import { esc } from '../../text/index.ts';

const CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--mut:#5f6368;--line:#d0d4d9;--card:#f6f8fa;--add:#e6ffec;--del:#ffebe9;--mark:#fff3b0}
@media (prefers-color-scheme:dark){:root{--bg:#121416;--fg:#e6e6e6;--mut:#a0a6ad;--line:#3a3f45;--card:#1c1f23;--add:#12361f;--del:#45181b;--mark:#4a4000}}
body{background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
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
@media print{.filters{display:none}body{max-width:none;background:#fff;color:#000}section,figure,tr{break-inside:avoid}
pre{white-space:pre-wrap}h2{break-before:auto}a{color:#000;text-decoration:none}}
`;

// filters hide rows that do not match; without script every row shows and the filter bar stays hidden
const SCRIPT = `
(function(){var bar=document.getElementById('filters');if(!bar)return;bar.hidden=false;
var q=document.getElementById('q'),only=document.getElementById('only-bad');
function apply(){var t=q.value.toLowerCase(),bad=only.checked;
document.querySelectorAll('[data-filter]').forEach(function(el){
var ok=(!t||el.textContent.toLowerCase().indexOf(t)>=0)&&(!bad||el.getAttribute('data-status')!=='pass');
el.hidden=!ok;});}
q.addEventListener('input',apply);only.addEventListener('change',apply);})();
`;

const hash = (s: string): string => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** No request of any kind: nothing but this page's own style and script may run, and nothing may be fetched. */
export const CSP = `default-src 'none'; style-src ${hash(CSS)}; script-src ${hash(SCRIPT)}; form-action 'none'; base-uri 'none'`;

const FILTERS = `<div id="filters" class="filters" hidden><label>Filter <input id="q" type="search" autocomplete="off"></label>
<label><input id="only-bad" type="checkbox"> only what does not pass</label></div>`;

/** A whole document: title and body are HTML already escaped by the caller. */
export function page(title: string, body: string, opts: { filters?: boolean } = {}): string {
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
${opts.filters === false ? '' : FILTERS}
${body}
<script>${SCRIPT}</script>
</body>
</html>
`;
}
