/** The printed results: one table of stages per case and one summary table with the floors. */
import type { FloorResult, PipelineDone, StageResult } from './protocol.ts';
import type { PathTotals } from './request-recorder.ts';

/** Everything measured for one case. */
export interface CaseResult {
  users: number;
  latencyMs: number;
  emulatorStartMs: number;
  /** CPU and peak RSS of the emulator process over the whole pipeline run (it serves the fetch only). */
  emulator?: { cpuMs: number; maxRssMb: number };
  stages: StageResult[];
  /** Wall time from starting the pipeline process to its last stage (process start and imports included). */
  endToEndMs: number;
  pipeline?: PipelineDone;
  floor?: FloorResult;
  error?: string;
}

/** Formats rows as a Markdown table with right-aligned columns after the first. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** `1234.5` ms -> `1.23 s`, below a second `123 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** Bytes in binary units: `1.5 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes === 0) return '0';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
}

/** A ratio as `2.3x`, or `-` when it cannot be computed. */
export function formatRatio(value: number, floor: number): string {
  return floor > 0 && Number.isFinite(value) ? `${(value / floor).toFixed(1)}x` : '-';
}

/** The per-stage table of one case. */
export function stageTable(result: CaseResult): string {
  const rows = result.stages.map((s) => [
    s.stage,
    s.skipped ? `skipped (${s.skipped})` : formatMs(s.wallMs),
    s.skipped ? '' : formatMs(s.cpuMs),
    s.requests ? String(s.requests) : '',
    s.bytes ? formatBytes(s.bytes) : '',
    s.rows ? s.rows.toLocaleString('en-US') : '',
    `${Math.round(s.maxRssMb)} MB${s.childPeakRssMb ? ` (+${Math.round(s.childPeakRssMb)} MB Chromium PSS)` : ''}`,
  ]);
  const total = result.stages.reduce((a, s) => a + s.wallMs, 0);
  rows.push(['stages total', formatMs(total), '', '', '', '', '']);
  rows.push(['end to end (process)', formatMs(result.endToEndMs), '', '', '', '', '']);
  if (result.emulator) {
    rows.push([
      'emulator process',
      '',
      formatMs(result.emulator.cpuMs),
      '',
      '',
      '',
      `${Math.round(result.emulator.maxRssMb)} MB`,
    ]);
  }
  return markdownTable(['stage', 'wall', 'cpu', 'requests', 'bytes', 'rows', 'peak RSS'], rows);
}

/** One row per case: end to end, peak RSS and the ratios to the floors. */
export function summaryTable(results: readonly CaseResult[]): string {
  const rows = results.map((r) => {
    const stage = (name: string) => r.stages.find((s) => s.stage === name);
    const fetch = stage('fetch');
    const compute = stage('compute');
    const peak = Math.max(0, ...r.stages.map((s) => s.maxRssMb));
    const f = r.floor;
    return [
      `${r.users.toLocaleString('en-US')} users, ${r.latencyMs} ms`,
      r.error ? `failed: ${r.error.slice(0, 60)}` : formatMs(r.endToEndMs),
      r.error ? '' : `${Math.round(peak)} MB`,
      fetch ? formatMs(fetch.wallMs) : '',
      f ? formatMs(f.fetchMs) : '',
      f && fetch ? formatRatio(fetch.wallMs, f.fetchMs) : '',
      f && fetch
        ? `${formatMs(fetch.cpuMs)} / ${formatMs(f.fetchCpuMs)} = ${formatRatio(fetch.cpuMs, f.fetchCpuMs)}`
        : '',
      compute ? formatMs(compute.wallMs) : '',
      f ? `${formatMs(f.duckdbQueryMs)} (+${formatMs(f.duckdbLoadMs)} load)` : '',
      f && compute ? formatRatio(compute.wallMs, f.duckdbQueryMs) : '',
      f && compute ? formatRatio(compute.wallMs, f.duckdbQueryMs + f.duckdbLoadMs) : '',
      f ? formatMs(f.jsLoopMs) : '',
      f ? (f.agree ? 'yes' : 'NO') : '',
      r.pipeline ? String(r.pipeline.maxOverlappingOperations) : '',
    ];
  });
  return markdownTable(
    [
      'case',
      'end to end',
      'peak RSS',
      'fetch',
      'fetch floor',
      'fetch/floor',
      'fetch CPU / floor CPU',
      'compute',
      'DuckDB',
      'compute/DuckDB',
      'compute/(DuckDB+load)',
      'JS loop',
      'floors agree',
      'endpoints overlapped',
    ],
    rows,
  );
}

/** Requests, bytes and summed response time per endpoint path, largest first. */
export function pathTable(byPath: Readonly<Record<string, PathTotals>>): string {
  const rows = Object.entries(byPath)
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([path, t]) => [path, String(t.responses), formatBytes(t.bytes), formatMs(t.ms)]);
  return markdownTable(['endpoint', 'requests', 'bytes', 'summed response time'], rows);
}
