/**
 * The page's first render rehearsed while the month is still being read (see warmup.ts): what costs
 * most the first time in a process and nothing after is done here, off the way from the computed
 * model to the PDF. ECharts' code runs slowly until V8 has compiled it (11 charts take about 200 ms
 * the first time, 60 after), the templates are made functions (about 20 ms for the built-in ones,
 * which the build compiled; Handlebars compiles others, about 150 ms; then kept by source) and
 * harfbuzz is loaded for the HTML's fonts (about 60 ms). Each step yields to the event loop first,
 * so the reading of the month is not held up for long.
 */
import { barChart, lineChart, rankingChart, shareChart } from '../charts.ts';
import { fontFaceCss } from '../fonts.ts';
import { prepareLayout } from '../html.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One small chart of each kind the report draws, with a legend and a title as the report's have. */
function drawEachKind(): void {
  const categories = ['a', 'b', 'c'];
  const series = [
    { name: 'x', values: [1, 2000, null] },
    { name: 'y', values: [0.5, 0.25, 0.25] },
  ];
  barChart(categories, series.slice(0, 1), { title: 'rehearsal' });
  lineChart(categories, series, { title: 'rehearsal' });
  rankingChart(
    categories.map((label, i) => ({ label, value: i * 1500 })),
    { title: 'rehearsal' },
  );
  shareChart(categories, series, { title: 'rehearsal' });
}

/**
 * Rehearses the page's render (`fonts: false`: its layout only); resolves once done. Nothing it makes is used as such (the charts and
 * the font cut are kept in their caches like any other, and soon replaced), so a failure here is
 * the render's to report, not this: it is swallowed.
 */
export async function rehearsePage(options: { fonts?: boolean } = {}): Promise<void> {
  const steps: Array<() => unknown> = [() => prepareLayout(), drawEachKind];
  // The fonts are cut where the page gets them: not on the render thread, whose pages go back to
  // the thread that asked for them without fonts (see render-thread.ts).
  if (options.fonts !== false) steps.push(() => fontFaceCss(''));
  for (const step of steps) {
    await nextTurn();
    try {
      await step();
    } catch {
      // The render does the same work again and reports what fails.
    }
  }
}
