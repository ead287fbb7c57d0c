import type { CurvePoint } from './scale-curves';

const cost = (p: CurvePoint) => p.serviceUs + p.databaseUs;
const us = (n: number) => Math.round(n).toLocaleString('en');
const PAGES: ReadonlyArray<CurvePoint['page']> = ['first', 'middle', 'last', 'cursor'];

/** One line per list and filter, one column per size and page: CPU us per list, service + database. */
export function curveTable(points: readonly CurvePoint[]): string {
  const sizes = [...new Set(points.map((p) => p.size))];
  const header = ['list', 'filter', 'page', ...sizes.map((s) => `${s.toLocaleString('en')} rows`)];
  const lines: string[][] = [];
  for (const list of ['account', 'customer'] as const) {
    for (const filter of ['none', 'status', 'dueDate'] as const) {
      for (const page of PAGES) {
        const cells = sizes.map((size) => {
          const p = points.find((q) => q.list === list && q.filter === filter && q.page === page && q.size === size);
          return p ? `${us(p.serviceUs)} + ${us(p.databaseUs)} (${p.rows.toLocaleString('en')})` : '';
        });
        lines.push([list, filter, page, ...cells]);
      }
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [format(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(format)].join('\n');
}

export interface CurveTarget {
  readonly what: string;
  readonly ratio: number;
  readonly limit: number;
  readonly met: boolean;
}

/**
 * Issue 21's targets: at the largest size, page 1 of each list without filter or by status costs at most 1.5x
 * what it costs at the smallest, and the last page no more than page 1.
 */
export function curveTargets(points: readonly CurvePoint[]): CurveTarget[] {
  const sizes = points.map((p) => p.size);
  const [smallest, largest] = [Math.min(...sizes), Math.max(...sizes)];
  const at = (list: string, filter: string, page: string, size: number) =>
    points.find((p) => p.list === list && p.filter === filter && p.page === page && p.size === size);
  const targets: CurveTarget[] = [];
  for (const list of ['account', 'customer'] as const) {
    for (const filter of ['none', 'status'] as const) {
      const [small, large, last] = [at(list, filter, 'first', smallest), at(list, filter, 'first', largest), at(list, filter, 'last', largest)];
      if (!small || !large || !last) continue;
      const growth = cost(large) / cost(small);
      targets.push({
        what: `${list} list, ${filter}: page 1 at ${large.rows.toLocaleString('en')} rows vs ${small.rows.toLocaleString('en')}`,
        ratio: growth,
        limit: 1.5,
        met: growth <= 1.5,
      });
      const lastVsFirst = cost(last) / cost(large);
      targets.push({
        what: `${list} list, ${filter}: last page vs page 1 at ${large.rows.toLocaleString('en')} rows`,
        ratio: lastVsFirst,
        limit: 1,
        met: lastVsFirst <= 1,
      });
    }
  }
  return targets;
}

const COLOURS: Record<CurvePoint['page'], string> = { first: '#3b7dd8', middle: '#d8a23b', last: '#d8643b', cursor: '#3bab5b' };
const DASHES: Record<CurvePoint['filter'], string> = { none: '', status: '6 3', dueDate: '2 3' };

/** Cost per list against rows, both axes log scale: one panel per list, one line per filter and page. */
export function curveChart(points: readonly CurvePoint[], top: number): { svg: string; height: number } {
  const panel = { width: 380, height: 260 };
  const rows = points.map((p) => p.rows).filter((r) => r > 0);
  const costs = points.map(cost);
  const [x0, x1] = [Math.log10(Math.min(...rows)), Math.log10(Math.max(...rows))];
  const [y0, y1] = [Math.floor(Math.log10(Math.min(...costs))), Math.ceil(Math.log10(Math.max(...costs)))];
  const parts: string[] = [
    `<text x="10" y="${top + 14}" font-size="13" font-weight="bold">CPU us per list (service + database) against matching rows, log-log</text>`,
  ];
  (['account', 'customer'] as const).forEach((list, i) => {
    const left = 60 + i * (panel.width + 60);
    const y = top + 40;
    const sx = (r: number) => left + ((Math.log10(Math.max(r, 1)) - x0) / Math.max(1e-9, x1 - x0)) * panel.width;
    const sy = (c: number) => y + panel.height - ((Math.log10(c) - y0) / Math.max(1e-9, y1 - y0)) * panel.height;
    parts.push(`<text x="${left}" y="${y - 8}" font-size="12">${list === 'account' ? 'one account' : 'one customer'}</text>`);
    parts.push(`<rect x="${left}" y="${y}" width="${panel.width}" height="${panel.height}" fill="none" stroke="#999"/>`);
    for (let e = y0; e <= y1; e++) parts.push(`<text x="${left - 5}" y="${sy(10 ** e) + 4}" font-size="10" text-anchor="end">${us(10 ** e)}</text>`);
    for (let e = Math.ceil(x0); e <= Math.floor(x1); e++) {
      const r = 10 ** e;
      parts.push(
        `<text x="${sx(r)}" y="${y + panel.height + 14}" font-size="10" text-anchor="middle">${r >= 1e6 ? `${r / 1e6}M` : r >= 1000 ? `${r / 1000}k` : r}</text>`,
      );
    }
    for (const filter of ['none', 'status', 'dueDate'] as const) {
      for (const page of PAGES) {
        const line = points.filter((p) => p.list === list && p.filter === filter && p.page === page && p.rows > 0).sort((a, b) => a.rows - b.rows);
        if (line.length === 0) continue;
        const d = line.map((p, k) => `${k === 0 ? 'M' : 'L'}${sx(p.rows).toFixed(1)},${sy(cost(p)).toFixed(1)}`).join(' ');
        parts.push(`<path d="${d}" fill="none" stroke="${COLOURS[page]}" stroke-width="1.5" stroke-dasharray="${DASHES[filter]}"/>`);
      }
    }
  });
  const legendY = top + 40 + panel.height + 34;
  const legend = [
    ...PAGES.map(
      (page, k) =>
        `<line x1="${60 + k * 110}" y1="${legendY}" x2="${85 + k * 110}" y2="${legendY}" stroke="${COLOURS[page]}" stroke-width="2"/><text x="${90 + k * 110}" y="${legendY + 4}" font-size="11">${page} page</text>`,
    ),
    ...(['none', 'status', 'dueDate'] as const).map(
      (filter, k) =>
        `<line x1="${60 + k * 150}" y1="${legendY + 18}" x2="${85 + k * 150}" y2="${legendY + 18}" stroke="#333" stroke-dasharray="${DASHES[filter]}"/><text x="${90 + k * 150}" y="${legendY + 22}" font-size="11">filter: ${filter}</text>`,
    ),
  ];
  parts.push(...legend);
  return { svg: parts.join('\n'), height: legendY + 40 - top };
}
