/**
 * The sync step shared by `sync` and `monthly --store`: connect (or start the demo), fetch into the
 * store the days it lacks with progress, close. The store package (and DuckDB) loads only here.
 */
import type { DayRange, IsoDate, IsoMonth } from '@orgreport/api-core';
import type { SyncResult } from '@orgreport/store';
import packageJson from '../../package.json' with { type: 'json' };
import { connect } from '../connect.ts';
import type { RunContext } from '../context.ts';
import { CliError, EXIT } from '../errors.ts';
import { readHookLog } from '../hook/record.ts';
import type { Reporter } from '../reporter.ts';
import type { Settings } from '../settings.ts';

export interface SyncRequest {
  store: string;
  since?: IsoDate;
  until?: IsoDate;
  refetch?: IsoMonth[];
  /** Users of the demo organization, when `--demo`. */
  demoUsers?: number;
  /** The organization's id when the configuration names it (saves asking the API). */
  orgId?: string;
  /** Told the organization's id as soon as the sync knows it (before it fetches a day). */
  onOrganization?: (orgId: string) => void;
}

/** What a sync did, and the organization's name to show. */
export interface SyncOutcome extends SyncResult {
  organizationName?: string;
  requests: number;
}

const span = (r: DayRange) => (r.start === r.end ? r.start : `${r.start}..${r.end}`);

/** Fetches into the store the days it lacks (`since..until`, within what the API has). */
export async function syncIntoStore(
  request: SyncRequest,
  config: Settings,
  reporter: Reporter,
  ctx: RunContext,
): Promise<SyncOutcome> {
  const { syncStore } = await import('@orgreport/store');
  const demo = request.demoUsers === undefined ? undefined : { users: request.demoUsers };
  const connection = await connect(config, reporter, ctx, demo);
  const deadline = config.deadlineMs === undefined ? undefined : AbortSignal.timeout(config.deadlineMs);
  try {
    const hookEvents = config.hookLog
      ? await readHookLog(config.hookLog, { start: request.since ?? '2026-01-14', end: config.today })
      : undefined;
    const stage = reporter.stage('sync');
    const result = await syncStore(request.store, {
      client: connection.client,
      now: config.now,
      toolVersion: packageJson.version,
      ...(request.since && { since: request.since }),
      ...(request.until && { until: request.until }),
      ...(request.refetch && { refetch: request.refetch }),
      ...(request.orgId && { orgId: request.orgId }),
      ...((config.organizationName ?? connection.organizationName) && {
        organizationName: config.organizationName ?? connection.organizationName,
      }),
      ...(hookEvents && { hookEvents }),
      secrets: [...ctx.secrets],
      ...(deadline && { signal: deadline }),
      onProgress: (p) => {
        if (p.stage === 'plan') {
          request.onOrganization?.(p.orgId);
          reporter.info(
            p.spans.length === 0
              ? `store ${request.store}: organization ${p.orgId} holds every day asked for; nothing to fetch`
              : `store ${request.store}: organization ${p.orgId} lacks ${p.spans.map(span).join(', ')}`,
          );
        } else if (p.stage === 'fetch') {
          stage.update(`${span(p.span)}: ${p.pages} pages, ${p.userDays} user-day rows`);
        } else {
          reporter.info(`  ${span(p.span)}: ${p.written} partition(s) written, ${p.unchanged} unchanged`);
        }
      },
    }).catch((error: unknown) => {
      if (deadline?.aborted) {
        throw new CliError(
          `the sync passed its deadline of ${config.deadlineMs! / 60_000} minutes (--deadline, ORGREPORT_DEADLINE); the months written so far are kept, the next sync goes on from there`,
          EXIT.failure,
          { cause: error },
        );
      }
      throw error;
    });
    stage.done(
      `${result.spans.length} span(s), ${result.written} partition(s) written, ${connection.client.stats.requests} requests`,
    );
    return {
      ...result,
      requests: connection.client.stats.requests,
      ...((config.organizationName ?? connection.organizationName) && {
        organizationName: config.organizationName ?? connection.organizationName,
      }),
    };
  } finally {
    await connection.close();
  }
}
