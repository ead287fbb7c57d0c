import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Measurement } from './stats';
import type { CurvePoint } from './scale-curves';
import { curveChart, curveTargets } from './scale-report';

export interface Row {
  readonly storage: string;
  readonly scenario: string;
  /** Null for a scenario whose feature does not exist yet; a Rate for work that is not requests (no latencies). */
  readonly result: Measurement | Rate | null;
  readonly baseline?: string;
  readonly ratio?: number;
  readonly target?: string;
  readonly met?: boolean;
  readonly note?: string;
}

/** The throughput of work measured as a whole, not request by request: a settlement cycle, a webhook fan-out. */
export interface Rate {
  readonly throughput: number;
  readonly unit: string;
  readonly errors: number;
  readonly count: number;
  /** CPU time per unit of work (a delivery), as a Measurement's per request. */
  readonly cpuPerRequestUs?: Measurement['cpuPerRequestUs'];
}

const isRequests = (result: Row['result']): result is Measurement => result !== null && !('unit' in result);

const fixed = (n: number, digits = 0) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function printTable(rows: readonly Row[]): string {
  const header = ['storage', 'scenario', 'throughput', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'CPU us/req svc+db', 'vs baseline', 'target', 'met'];
  const cpu = (result: Row['result']) => {
    const c = result?.cpuPerRequestUs;
    return c ? `${fixed(c.service)}${c.database === undefined ? '' : ` + ${fixed(c.database)}`}` : '';
  };
  const latency = (r: Row, quantile: 'p50' | 'p95' | 'p99') => (isRequests(r.result) ? fixed(r.result[quantile], 1) : '');
  const lines = rows.map((r) => [
    r.storage,
    r.scenario,
    r.result ? `${fixed(r.result.throughput)} ${isRequests(r.result) ? 'req/s' : r.result.unit}` : 'pending',
    latency(r, 'p50'),
    latency(r, 'p95'),
    latency(r, 'p99'),
    r.result ? String(r.result.errors) : '',
    cpu(r.result),
    r.ratio === undefined ? '' : `${fixed(r.ratio * 100)}% of ${r.baseline}`,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [format(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(format)].join('\n');
}

/** Two panels of horizontal bars, throughput and p99 per scenario, and the scale curves under them. */
function chart(rows: readonly Row[], curves: readonly CurvePoint[]): string {
  const measured = rows.filter((r): r is Row & { result: Measurement } => isRequests(r.result));
  const bar = 12;
  const height = 60 + measured.length * (bar + 6) * 2 + 40;
  const panel = (title: string, y0: number, value: (r: (typeof measured)[number]) => number, unit: string, colour: string) => {
    const max = Math.max(1, ...measured.map(value));
    const bars = measured.map((r, i) => {
      const y = y0 + 20 + i * (bar + 6);
      const w = (value(r) / max) * 420;
      return [
        `<text x="10" y="${y + 10}" font-size="11">${r.storage} ${r.scenario}</text>`,
        `<rect x="300" y="${y}" width="${w.toFixed(1)}" height="${bar}" fill="${colour}"/>`,
        `<text x="${305 + w}" y="${y + 10}" font-size="11">${fixed(value(r), 1)} ${unit}</text>`,
      ].join('');
    });
    return `<text x="10" y="${y0 + 10}" font-size="13" font-weight="bold">${title}</text>${bars.join('')}`;
  };
  const secondTop = 40 + measured.length * (bar + 6) + 20;
  const scale = curves.length > 0 ? curveChart(curves, measured.length > 0 ? height : 0) : { svg: '', height: 0 };
  const bars = measured.length > 0 ? height : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${bars + scale.height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
${measured.length > 0 ? panel('Throughput (higher is better)', 10, (r) => r.result.throughput, 'req/s', '#3b7dd8') : ''}
${measured.length > 0 ? panel('p99 latency (lower is better)', secondTop, (r) => r.result.p99, 'ms', '#d8643b') : ''}
${scale.svg}
</svg>
`;
}

/**
 * Writes latest.json and latest.svg. A run of the scale curves alone (no rows) keeps the rows of the last full run
 * and says when that was, so both files hold both.
 */
export function writeResults(rows: readonly Row[], machine: Record<string, unknown>, curves: readonly CurvePoint[] = []): string {
  const dir = path.join(process.cwd(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'latest.json');
  const now = new Date().toISOString();
  const previous =
    rows.length === 0 && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { when: string; rowsWhen?: string; rows: Row[] }) : undefined;
  const kept = previous ? { rows: previous.rows, rowsWhen: previous.rowsWhen ?? previous.when } : { rows, rowsWhen: now };
  const scale = curves.length > 0 ? { scaleCurves: curves, scaleTargets: curveTargets(curves) } : {};
  writeFileSync(file, JSON.stringify({ when: now, machine, ...kept, ...scale }, null, 2));
  writeFileSync(path.join(dir, 'latest.svg'), chart(kept.rows, curves));
  return dir;
}
