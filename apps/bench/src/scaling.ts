/**
 * What `pnpm bench --store` holds its figures to once every size has run. Machines here differ by
 * 2x from hour to hour, so no target is a number of seconds on its own:
 * - issue 34's: the 100k month against the 10k month of the same run (the README's command at most
 *   2.5x, the workbook stage at most 3x), judged on the ratios of the alternated pairs where the run
 *   has them (each size's own runs are minutes apart, in which the machine's speed moves);
 * - a time target set in seconds (issue 15's) holds on a machine whose yardstick (the 12-month
 *   query of the 10k store) takes {@link REFERENCE_YARDSTICK_S}: it is judged as that many
 *   yardsticks of this run.
 */
import { round } from './numbers.ts';
import type { StoreCaseId, StoreFigure } from './store-bench.ts';

/**
 * The yardstick's time on the quiet machines where issue 15's targets were set (0.33 to 0.54 s,
 * docs/performance.md): a limit of L seconds is L / 0.5 yardsticks.
 */
export const REFERENCE_YARDSTICK_S = 0.5;

/** Issue 34's targets: the 100k figure at most this many times the 10k one. */
const RATIO_TARGETS: ReadonlyArray<{ id: StoreCaseId; label: string; limit: number }> = [
  { id: 'monthly-readme', label: "the README's command (pnpm exec orgreport monthly --store)", limit: 2.5 },
  { id: 'workbook', label: 'the workbook stage', limit: 3 },
];

/** The run's yardstick: the 12-month query of the 10k store, else of the size that measured it. */
function yardstickOf(figures: readonly StoreFigure[]): StoreFigure | undefined {
  return (
    figures.find((f) => f.id === 'yardstick' && f.users === 10_000) ??
    figures.find((f) => f.id === 'yardstick')
  );
}

/**
 * The run's figures with their time targets judged against its yardstick, followed by issue 34's
 * ratios between 100,000 and 10,000 users where both sizes ran.
 *
 * @example
 * judgeStoreFigures(figures).filter((f) => f.ok === false) // what the run missed
 */
export function judgeStoreFigures(figures: readonly StoreFigure[]): StoreFigure[] {
  const at = (users: number, id: StoreCaseId) => figures.find((f) => f.users === users && f.id === id);
  const pairsOf = (id: StoreCaseId) => figures.find((f) => f.id === `${id}-pairs`);
  const yardstick = yardstickOf(figures);
  const measured = figures.filter((f) => !f.id.endsWith('-pairs'));
  const judged = measured.map((f): StoreFigure => {
    if (f.limitSeconds === undefined) return f;
    if (!yardstick)
      return {
        ...f,
        target: `<= ${f.limitSeconds} s (no yardstick in this run)`,
        ok: f.value <= f.limitSeconds,
      };
    const yardsticks = f.limitSeconds / REFERENCE_YARDSTICK_S;
    const here = yardsticks * yardstick.value;
    return {
      ...f,
      target: `<= ${f.limitSeconds} s at a ${REFERENCE_YARDSTICK_S} s yardstick = ${round(yardsticks, 1)} yardsticks = ${round(here, 1)} s in this run`,
      ok: f.value <= here,
    };
  });
  const ratios: StoreFigure[] = [];
  const paired: StoreFigure[] = [];
  for (const { id, label, limit } of RATIO_TARGETS) {
    const target = { target: `<= ${limit}x (issue 34)` };
    const pairs = pairsOf(id);
    if (pairs) paired.push({ ...pairs, ...target, ok: pairs.value <= limit });
    const small = at(10_000, id);
    const large = at(100_000, id);
    if (!small || !large || small.value <= 0) continue;
    const ratio = large.value / small.value;
    ratios.push({
      users: 100_000,
      id: `${id}-ratio`,
      case: `${label}: 100,000 users against 10,000 (${large.value} ${large.unit} / ${small.value} ${small.unit})${pairs ? ', the medians of runs minutes apart: the alternated pairs judge the target' : ''}`,
      value: round(ratio),
      unit: 'x',
      ...(pairs ? {} : { ...target, ok: ratio <= limit }),
    });
  }
  return [...judged, ...ratios, ...paired];
}

/**
 * The run's summary: the yardstick, then every figure with its target's verdict, each time in
 * seconds beside it as a number of yardsticks.
 */
export function storeSummaryLines(judged: readonly StoreFigure[]): string[] {
  const yardstick = yardstickOf(judged);
  const lines = [
    yardstick
      ? `Yardstick of this run: the 12-month query of the ${yardstick.users.toLocaleString('en-US')}-user store, ${yardstick.value} s (${REFERENCE_YARDSTICK_S} s on a quiet machine here).`
      : 'No yardstick in this run (it is measured with 10,000 users or fewer): time targets are judged in seconds.',
    '',
    '| users | case | figure | target | |',
    '| ---: | --- | ---: | --- | --- |',
  ];
  for (const f of judged) {
    const inYardsticks =
      yardstick && f.unit === 's' && f.id !== 'yardstick'
        ? ` (${round(f.value / yardstick.value, 1)} yardsticks)`
        : '';
    const verdict = f.ok === undefined ? '' : f.ok ? 'met' : '**missed**';
    lines.push(
      `| ${f.users.toLocaleString('en-US')} | ${f.case} | ${f.value} ${f.unit}${inYardsticks} | ${f.target ?? ''} | ${verdict} |`,
    );
  }
  return lines;
}
