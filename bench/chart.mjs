// The benchmark chart: a hand-written SVG (no charting dependency for three bar groups), turned
// into PNG by rsvg-convert (librsvg2-bin) or ImageMagick's convert, whichever is installed.
import { writeFileSync } from 'node:fs';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');

const series = [['dc', '#c0392b'], ['inline', '#e59866'], ['deploy', '#2471a3']];

/** One grouped bar panel: groups of {label, dc, inline, deploy} values (absent ones skipped); returns SVG elements. */
function panel({ x, y, w, h, title, unit, groups }) {
  const out = [];
  const max = Math.max(...groups.flatMap((g) => [g.dc, g.inline, g.deploy]).filter(Number.isFinite), 1e-9);
  const plotH = h - 70;
  const gw = w / Math.max(groups.length, 1);
  out.push(`<text x="${x + w / 2}" y="${y + 16}" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`);
  const base = y + 30 + plotH;
  out.push(`<line x1="${x}" y1="${base}" x2="${x + w}" y2="${base}" stroke="#333"/>`);
  groups.forEach((g, i) => {
    const bw = Math.min(36, gw / 4);
    const cx = x + gw * i + gw / 2;
    const shown = series.filter(([key]) => Number.isFinite(g[key]));
    shown.forEach(([key, color], k) => {
      const v = g[key];
      const bh = (v / max) * plotH;
      const bx = cx - (shown.length * bw) / 2 + k * bw;
      out.push(`<rect x="${bx}" y="${base - bh}" width="${bw - 2}" height="${bh}" fill="${color}"/>`);
      out.push(`<text x="${bx + bw / 2 - 1}" y="${base - bh - 4}" text-anchor="middle" font-size="10">${esc(v < 10 ? v.toFixed(1) : Math.round(v))}</text>`);
    });
    out.push(`<text x="${cx}" y="${base + 16}" text-anchor="middle" font-size="11">${esc(g.label)}</text>`);
  });
  out.push(`<text x="${x}" y="${base + 34}" font-size="10" fill="#555">${esc(unit)}</text>`);
  return out;
}

/** Writes the chart as SVG (markdown renders it; no converter needed). */
export function renderChart(results, svgFile) {
  const byN = new Map();
  for (const r of results) {
    if (!byN.has(r.n)) byN.set(r.n, {});
    byN.get(r.n)[r.kind] = r;
  }
  const pairs = [...byN].filter(([, v]) => (v.dc || v['dc-inline']) && v.deploy);
  const each = (v, f) => ({ dc: v.dc ? f(v.dc) : undefined, inline: v['dc-inline'] ? f(v['dc-inline']) : undefined, deploy: f(v.deploy) });
  const timeGroups = pairs.flatMap(([n, v]) => ['create', 'update'].map((ph) => ({
    label: `N=${n} ${ph === 'create' ? 'first' : 'update'}`, ...each(v, (r) => r.phases[ph].totalMs / 1000),
  })));
  const p50Groups = pairs.map(([n, v]) => ({ label: `N=${n}`, ...each(v, (r) => r.phases.update.p50 / 1000) }));
  const tot = (r) => Object.values(r.perVerb).reduce((a, b) => a + b, 0) / r.rollouts;
  const reqGroups = pairs.map(([n, v]) => ({ label: `N=${n}`, ...each(v, tot) }));
  const cpuGroups = pairs.map(([n, v]) => ({ label: `N=${n}`, ...each(v, (r) => (r.cpuTotal / r.rollouts) * 1000) }));
  const W = 1000;
  const H = 620;
  const els = [
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${W / 2}" y="26" text-anchor="middle" font-size="18" font-weight="bold">DeploymentConfig (dcctl, both modes) vs Deployment (kube-controller-manager), 3 replicas each</text>`,
    `<rect x="${W - 520}" y="40" width="12" height="12" fill="#c0392b"/><text x="${W - 502}" y="51" font-size="12">DC, deployer pod</text>`,
    `<rect x="${W - 330}" y="40" width="12" height="12" fill="#e59866"/><text x="${W - 312}" y="51" font-size="12">DC, pod-less</text>`,
    `<rect x="${W - 120}" y="40" width="12" height="12" fill="#2471a3"/><text x="${W - 102}" y="51" font-size="12">Deployment</text>`,
    ...panel({ x: 40, y: 60, w: 540, h: 270, title: 'Time until all rolled out', unit: 'seconds', groups: timeGroups }),
    ...panel({ x: 640, y: 60, w: 320, h: 270, title: 'Median per-object update rollout', unit: 'seconds', groups: p50Groups }),
    ...panel({ x: 40, y: 340, w: 420, h: 270, title: 'API requests per rollout', unit: 'requests (controllers; audit log by user agent)', groups: reqGroups }),
    ...panel({ x: 520, y: 340, w: 440, h: 270, title: 'Controller CPU per rollout', unit: 'CPU ms (DC: controller + deployer + KCM; Deployment: KCM)', groups: cpuGroups }),
  ];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="DejaVu Sans, sans-serif">\n${els.join('\n')}\n</svg>\n`;
  writeFileSync(svgFile, svg);
}
