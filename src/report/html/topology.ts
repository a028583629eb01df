/** Per cluster, the topology as inline SVG: web hosts above, nodes by role, and on each node what the checks look at. */
import type { ClusterTopology, TopologyNode, TopologyWeb } from '../../model/index.ts';
import { clip, esc } from '../../text/index.ts';

const W = 250;
const GAP = 24;
const LINE = 16;
const PER_ROW = 4;

interface Line {
  text: string;
  bad?: boolean;
  mut?: boolean;
}

const isData = (n: TopologyNode): boolean => n.roles.some((r) => r === 'data' || r.startsWith('data_'));

/** The lines of one node; `bad` marks what makes a check fail there. */
export function nodeLines(n: TopologyNode): Line[] {
  const out: Line[] = [{ text: `${n.elected ? '★ ' : ''}${n.name}` }];
  out.push({ text: n.roles.length ? n.roles.join(', ') : 'no running node', mut: true });
  out.push({ text: `${n.address}${n.host && n.host !== n.name ? ` · host ${n.host}` : ''}`, mut: true });
  if (!n.reachable) out.push({ text: n.host ? '✗ not reachable over SSH' : 'not in the inventory', bad: !!n.host });
  const sme = n.node_with_sme;
  out.push({
    text: `node_with_sme: ${sme === null ? 'not read' : String(sme)}${sme && n.master ? ' ✗' : ''}`,
    bad: sme === true && n.master,
  });
  const plugins = n.plugins;
  out.push({
    text:
      plugins === null
        ? 'sm-* plugins: not read'
        : plugins.length
          ? `${plugins.join(', ')}${n.master ? ' ✗' : ''}`
          : 'no sm-* plugin',
    bad: n.master && !!plugins?.length,
  });
  const ks = n.keystore_entry;
  out.push({
    text: `keystore entry: ${ks === null ? 'not read' : ks ? `present${n.master ? ' ✗' : ''}` : 'absent'}`,
    bad: n.master && ks === true,
  });
  const started = n.limits_copies.some((c) => c.endsWith('STARTED'));
  out.push({
    text: `limits index: ${n.limits_copies.length ? n.limits_copies.join(', ') : 'no copy'}${isData(n) && !started ? ' ✗' : ''}`,
    bad: isData(n) && !started,
  });
  return out;
}

function textLine(l: Line, x: number, y: number): string {
  const cls = l.bad ? ' class="bad"' : l.mut ? ' class="mut"' : '';
  return `<text x="${x}" y="${y}"${cls} font-size="12">${esc(clip(l.text, 35))}<title>${esc(l.text)}</title></text>`;
}

function box(x: number, y: number, h: number, lines: Line[], label: string, bad: boolean, kind: string): string {
  const stroke = bad ? ' stroke="#c62828" stroke-width="2"' : '';
  const body = lines.map((l, i) => textLine(l, x + 8, y + 18 + i * LINE)).join('');
  return `<g class="${kind}" data-name="${esc(label)}"><rect class="box" x="${x}" y="${y}" width="${W}" height="${h}" rx="6"${stroke}/>${body}</g>`;
}

const webLines = (w: TopologyWeb): Line[] => [
  { text: `web ${w.host}` },
  w.points_at === null
    ? { text: w.reachable ? 'hosts not read' : '✗ not reachable over SSH', bad: !w.reachable }
    : { text: `${w.points_at.length} host${w.points_at.length === 1 ? '' : 's'} listed`, mut: true },
  ...(w.points_at ?? []).filter((p) => p.node === null).map((p) => ({ text: `no node: ${p.url}`, mut: true })),
];

/** The SVG of one cluster; `label` names it for screen readers. */
export function topologySvg(t: ClusterTopology, label: string, key: number): string {
  const arrow = `arrow-${key}`;
  const nodeH = Math.max(1, ...t.nodes.map((n) => nodeLines(n).length)) * LINE + 14;
  const webH = Math.max(2, ...t.web.map((w) => webLines(w).length)) * LINE + 14;
  const cols = Math.max(1, Math.min(PER_ROW, Math.max(t.nodes.length, t.web.length)));
  const top = t.web.length ? webH + 60 : 10;
  const rows = Math.max(1, Math.ceil(t.nodes.length / PER_ROW));
  const width = cols * (W + GAP) + GAP;
  const height = top + rows * (nodeH + GAP) + 10;
  const pos = new Map<string, { x: number; y: number }>();
  const parts: string[] = [];
  t.nodes.forEach((n, i) => {
    const x = GAP + (i % PER_ROW) * (W + GAP);
    const y = top + Math.floor(i / PER_ROW) * (nodeH + GAP);
    pos.set(n.name, { x, y });
  });
  // arrows first, so boxes are drawn over them
  t.web.forEach((w, i) => {
    const x = GAP + (i % PER_ROW) * (W + GAP);
    for (const p of w.points_at ?? []) {
      const to = p.node === null ? undefined : pos.get(p.node);
      const target = t.nodes.find((n) => n.name === p.node);
      if (!to || !target) continue;
      const bad = target.master;
      // a node below the first row is reached through the gaps between boxes, never across another node
      const sx = x + W / 2;
      const tx = to.x + W / 2;
      const route =
        to.y === top
          ? `M${sx} ${10 + webH}L${tx} ${to.y}`
          : `M${sx} ${10 + webH}L${sx} ${top - 14}L${to.x - GAP / 2} ${top - 14}L${to.x - GAP / 2} ${to.y - 10}L${tx} ${to.y - 10}L${tx} ${to.y}`;
      parts.push(
        `<path d="${route}" fill="none" stroke="${bad ? '#c62828' : '#888'}" stroke-width="${bad ? 2.5 : 1.5}"${bad ? ' stroke-dasharray="6 3"' : ''} marker-end="url(#${arrow})"><title>${esc(`${w.host} → ${p.url}${bad ? ' (a master: ✗)' : ''}`)}</title></path>`,
      );
    }
    const lines = webLines(w);
    const bad = (w.points_at ?? []).some((p) => t.nodes.find((n) => n.name === p.node)?.master) || !w.reachable;
    parts.push(box(x, 10, webH, lines, w.host, bad, 'web'));
  });
  for (const n of t.nodes) {
    const p = pos.get(n.name)!;
    const lines = nodeLines(n);
    parts.push(
      box(
        p.x,
        p.y,
        nodeH,
        lines,
        n.name,
        lines.some((l) => l.bad),
        n.master ? 'node master' : 'node',
      ),
    );
  }
  const defs = `<defs><marker id="${arrow}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L10 5L0 10z" fill="#888"/></marker></defs>`;
  return `<svg class="topology" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(`topology of ${label}`)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${defs}${parts.join('')}</svg>`;
}
