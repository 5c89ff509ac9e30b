/// <reference path="./echarts-build.d.ts" />
/**
 * Charts as SVG strings rendered in Node by ECharts' server-side renderer, inlined into the HTML.
 * No animation and no randomness, so identical input gives identical SVG.
 */
import { createHash } from 'node:crypto';
// ECharts' one-file build (declared in echarts-build.d.ts): the same library, loaded in about 80 ms
// instead of about 450 ms for its hundreds of separate modules (a run's start is on the critical path).
import * as echarts from 'echarts/dist/echarts.esm.min.mjs';
import { escapeHtml, shortText } from './display-text.ts';
import { formatValue } from './format.ts';

/** Pixel size of a chart. */
export interface ChartSize {
  width: number;
  height: number;
}

/** The report's palette, readable in print and distinguishable in grey scale. */
export const CHART_COLORS = ['#1f4e79', '#2e86c1', '#48c9b0', '#f5b041', '#dc7633', '#8e44ad', '#7f8c8d'];

// Noto Color Emoji is a local system font: emoji in labels render without loading anything.
const FONT_FAMILY = 'Noto Sans, sans-serif, Noto Color Emoji';

/** What a chart says in words: its title (the SVG's accessible name) and its data as a table. */
export interface ChartText {
  title: string;
  head: ReadonlyArray<string>;
  rows: ReadonlyArray<ReadonlyArray<string>>;
}

/**
 * The chart with its text alternative: the SVG is an image named by the title (`role="img"`,
 * `aria-label`, `<title>`), followed by its data as a table in a closed `<details>` (left out of
 * print by the style sheet, so the PDF keeps its look).
 */
export function withTextAlternative(svg: string, text: ChartText): string {
  const title = escapeHtml(text.title);
  const named = svg.replace(
    /^<svg\b([^>]*)>/,
    `<svg$1 role="img" aria-label="${title}"><title>${title}</title>`,
  );
  const head = text.head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const rows = text.rows
    .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('');
  return `${named}<details class="chart-data"><summary>${title}: the data</summary><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></details>`;
}

/** A value of a chart's table: a share as a percentage, any other number in full. */
function cell(value: number | null | undefined, percent = false): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  return percent
    ? formatValue(value, 'share')
    : formatValue(value, Number.isInteger(value) ? 'integer' : 'decimal');
}

/** The table of a chart over categories: one row per category, one column per series. */
function seriesTable(
  title: string | undefined,
  categories: ReadonlyArray<string>,
  series: ReadonlyArray<ChartSeries>,
  percent = false,
): ChartText | undefined {
  if (!title) return undefined;
  return {
    title,
    head: ['', ...series.map((s) => s.name)],
    rows: categories.map((c, i) => [c, ...series.map((s) => cell(s.values[i], percent))]),
  };
}

/** Charts rendered lately, by their option, size and text: the same chart is drawn once per process. */
const drawn = new Map<string, string>();
/** Charts kept at most: a distribution's organization-wide charts, repeated in every scoped report. */
const DRAWN_KEPT = 64;

/**
 * Renders an ECharts option to an SVG string (animation off, report palette and font). A chart
 * drawn lately with the same option, size and text is not drawn again (the SVG is the same: its ids
 * are stable): the organization's charts of hundreds of scoped reports are drawn once.
 */
export function renderChartSvg(option: echarts.EChartsOption, size: ChartSize, text?: ChartText): string {
  const key = JSON.stringify([option, size, text ?? null]);
  const known = drawn.get(key);
  if (known !== undefined) return known;
  const svg = drawChartSvg(option, size, text);
  if (drawn.size >= DRAWN_KEPT) drawn.delete(drawn.keys().next().value!);
  drawn.set(key, svg);
  return svg;
}

function drawChartSvg(option: echarts.EChartsOption, size: ChartSize, text?: ChartText): string {
  const chart = echarts.init(null, null, {
    renderer: 'svg',
    ssr: true,
    width: size.width,
    height: size.height,
  });
  try {
    chart.setOption({
      animation: false,
      color: CHART_COLORS,
      textStyle: { fontFamily: FONT_FAMILY, fontSize: 11 },
      ...option,
    });
    const svg = stableIds(chart.renderToSVGString());
    return text ? withTextAlternative(svg, text) : svg;
  } finally {
    chart.dispose();
  }
}

/**
 * ECharts numbers the SVG's ids and classes with process-wide counters (`zr3-cls-17`), so the same
 * chart differs from one render to the next and two inlined charts could share class names. Ids are
 * renumbered in order of appearance under a prefix derived from the chart's content.
 */
function stableIds(svg: string): string {
  const ECHARTS_ID = /zr\d+-[a-z-]*\d+/g;
  const ids = new Map<string, number>();
  const renumber = (idOf: (n: number) => string) =>
    svg.replace(ECHARTS_ID, (token) => {
      let n = ids.get(token);
      if (n === undefined) {
        n = ids.size;
        ids.set(token, n);
      }
      return idOf(n);
    });
  // Hash the chart with ids numbered from 0, then number them again under the hash.
  const prefix = `ch${createHash('sha256')
    .update(renumber((n) => `id${n}`))
    .digest('hex')
    .slice(0, 10)}-`;
  return renumber((n) => prefix + n);
}

/** A named series of a chart. */
export interface ChartSeries {
  name: string;
  values: ReadonlyArray<number | null>;
}

/** Options shared by the chart builders. */
export interface SeriesChartOptions extends Partial<ChartSize> {
  /** Stack the series (bars or areas add up). */
  stacked?: boolean;
  /** Y axis shows fractions as percentages. */
  percent?: boolean;
  /** The chart's title: its accessible name, and the caption of its data table. */
  title?: string;
}

const percentAxisLabel = (v: number) => `${Math.round(v * 100)}%`;

const COMPACT_STEPS: ReadonlyArray<readonly [number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/**
 * A short axis label for a large number: 50M, 1.5B, 2.5k (at most one decimal, trailing zero
 * dropped); numbers below 1,000 unchanged. Deterministic (no locale).
 *
 * @example
 * compactNumber(50_000_000) // '50M'
 */
export function compactNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  const abs = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  // Largest first: the first step the value reaches; one decimal may round up to 1000 of a step
  // (999,960 -> 1000k), which then reads as one of the next step (1M).
  const i = COMPACT_STEPS.findIndex(([step]) => abs >= step);
  if (i === -1) return `${sign}${String(Math.round(abs * 100) / 100)}`;
  let [step, suffix] = COMPACT_STEPS[i]!;
  let scaled = Math.round((abs / step) * 10) / 10;
  if (scaled >= 1000 && i > 0) {
    [step, suffix] = COMPACT_STEPS[i - 1]!;
    scaled = Math.round((abs / step) * 10) / 10;
  }
  return `${sign}${String(scaled)}${suffix}`;
}

/** The value axis of a chart: percentages, or compact large numbers. */
function valueAxisLabel(percent: boolean | undefined) {
  return { formatter: percent ? percentAxisLabel : compactNumber };
}

/** A bar chart over categories (days, weeks, models), one bar per series. */
export function barChart(
  categories: ReadonlyArray<string>,
  series: ReadonlyArray<ChartSeries>,
  options: SeriesChartOptions = {},
): string {
  return renderChartSvg(
    {
      grid: { left: 64, right: 16, top: series.length > 1 ? 36 : 16, bottom: 48 },
      legend: series.length > 1 ? { top: 0, data: series.map((s) => s.name) } : { show: false },
      xAxis: { type: 'category', data: [...categories], axisLabel: { hideOverlap: true } },
      yAxis: {
        type: 'value',
        ...(options.percent ? { max: 1 } : {}),
        axisLabel: valueAxisLabel(options.percent),
      },
      series: series.map((s) => ({
        type: 'bar',
        name: s.name,
        data: [...s.values],
        ...(options.stacked ? { stack: 'total' } : {}),
      })),
    },
    { width: options.width ?? 680, height: options.height ?? 240 },
    seriesTable(options.title, categories, series, options.percent),
  );
}

/** A line chart over categories, one line per series. */
export function lineChart(
  categories: ReadonlyArray<string>,
  series: ReadonlyArray<ChartSeries>,
  options: SeriesChartOptions = {},
): string {
  return renderChartSvg(
    {
      grid: { left: 64, right: 16, top: series.length > 1 ? 36 : 16, bottom: 48 },
      legend: series.length > 1 ? { top: 0, data: series.map((s) => s.name) } : { show: false },
      xAxis: {
        type: 'category',
        data: [...categories],
        boundaryGap: false,
        axisLabel: { hideOverlap: true },
      },
      yAxis: {
        type: 'value',
        ...(options.percent ? { max: 1 } : {}),
        axisLabel: valueAxisLabel(options.percent),
      },
      series: series.map((s) => ({
        type: 'line',
        name: s.name,
        data: [...s.values],
        showSymbol: false,
        ...(options.stacked ? { stack: 'total', areaStyle: {} } : {}),
      })),
    },
    { width: options.width ?? 680, height: options.height ?? 240 },
    seriesTable(options.title, categories, series, options.percent),
  );
}

/** A horizontal bar chart of labelled values (top lists), largest first as given. */
export function rankingChart(
  items: ReadonlyArray<{ label: string; value: number }>,
  options: Partial<ChartSize> & { title?: string } = {},
): string {
  const reversed = [...items].reverse();
  const height = options.height ?? Math.max(120, 28 + items.length * 22);
  return renderChartSvg(
    {
      grid: { left: 210, right: 48, top: 8, bottom: 24 },
      xAxis: { type: 'value', axisLabel: valueAxisLabel(false) },
      yAxis: {
        type: 'category',
        // ECharts measures text without the page's font, so labels are also cut to a safe length here.
        data: reversed.map((i) => truncateLabel(i.label, RANKING_LABEL)),
        axisLabel: { width: 200, overflow: 'truncate' },
      },
      series: [{ type: 'bar', data: reversed.map((i) => i.value), label: { show: false } }],
    },
    { width: options.width ?? 680, height },
    options.title
      ? { title: options.title, head: ['', 'value'], rows: items.map((i) => [i.label, cell(i.value)]) }
      : undefined,
  );
}

/** Shares of a whole as one horizontal 100 % stacked bar per row (mixes over weeks or the month). */
export function shareChart(
  rows: ReadonlyArray<string>,
  series: ReadonlyArray<ChartSeries>,
  options: Partial<ChartSize> & { title?: string } = {},
): string {
  return renderChartSvg(
    {
      grid: { left: 8, right: 16, top: 36, bottom: 24, containLabel: true },
      legend: { top: 0, data: series.map((s) => s.name) },
      xAxis: { type: 'value', max: 1, axisLabel: { formatter: percentAxisLabel } },
      yAxis: { type: 'category', data: [...rows].reverse() },
      series: series.map((s) => ({
        type: 'bar',
        name: s.name,
        stack: 'share',
        data: [...s.values].reverse(),
      })),
    },
    { width: options.width ?? 680, height: options.height ?? Math.max(120, 60 + rows.length * 24) },
    seriesTable(options.title, rows, series, true),
  );
}

/** Labels longer than this are cut with an ellipsis so a hostile 10k-character name cannot swamp a chart. */
const MAX_LABEL = 40;
/** Longest label of a ranking chart that fits its 200-pixel label column at 11 px. */
const RANKING_LABEL = 30;

/** Shortens a chart label to `max` characters (default {@link MAX_LABEL}). */
export function truncateLabel(label: string, max = MAX_LABEL): string {
  return shortText(label, max);
}
