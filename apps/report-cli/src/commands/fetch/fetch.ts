/** `orgreport fetch`: a month's snapshot only, written atomically to `<out>/snapshot` or `--snapshot DIR`. */
import { resolve } from 'node:path';
import { UsageError } from '@orgreport/pipeline/errors';
import { type AcquireFlags, fetchMonthSnapshot } from '@orgreport/pipeline/snapshot';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';
import { jsonSummary } from '../../print/summary.ts';

export interface FetchOptions extends ConfigFlags, AcquireFlags {
  /** Snapshot directory to write (default `<out>/snapshot`). */
  snapshot?: string;
  /** Print one JSON summary on stdout. */
  json?: boolean;
}

/** Fetches the month and writes its snapshot directory. */
export async function fetch(options: FetchOptions, ctx: CommandContext): Promise<void> {
  const started = performance.now();
  if (options.snapshot !== undefined && options.out !== undefined) {
    throw new UsageError(
      `--out ${options.out} and --snapshot ${options.snapshot} both say where the snapshot goes (--out DIR writes DIR/snapshot): give one of them`,
    );
  }
  const { config, reporter } = setUp(options, ctx);
  const target = options.snapshot
    ? resolve(ctx.io.cwd, options.snapshot)
    : resolve(config.outDir, 'snapshot');
  const { snapshot, written } = await fetchMonthSnapshot(config, options, target, ctx, reporter);
  if (options.json) {
    const m = snapshot.manifest;
    ctx.io.stdout.write(
      jsonSummary(
        {
          command: 'fetch',
          organization: m.organization,
          period: {
            month: m.period.month,
            start: m.period.start,
            end: m.period.end,
            partial: m.period.partial,
          },
          outputs: [{ kind: 'snapshot', path: written.path, bytes: written.bytes }],
          // The fetch stage's own findings: rows it excluded or flagged.
          dataQuality: (m.rowChecks ?? []).map((c) => ({
            kind: `rows_${c.rule.replace('-', '_')}`,
            message: `${c.rows} ${c.dataset} rows: ${c.rule}, ${c.action}`,
            count: c.rows,
          })),
          mailedTo: [],
          warnings: [],
        },
        started,
      ),
    );
  }
}
