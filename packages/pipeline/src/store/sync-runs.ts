/**
 * The store's side of every `orgreport sync` run: before it, the store is checked for damage (a
 * damaged store fails the run, naming the file and the rebuild, whether or not this run would have
 * read that file); after it, the run is recorded in `_sync/org_id=<id>/runs.jsonl`, failed or not,
 * for a watch to read.
 */

import type { RunContext } from '../context.ts';
import { messageOf } from '../errors.ts';
import { fileSlug as slug } from '../output/slug.ts';
import type { Reporter } from '../reporter.ts';
import { configuredOrgId, type Settings } from '../settings.ts';

/**
 * Fails with the store's first damaged file, after a warning for each other one. A folder that is
 * no store yet has nothing to check (the sync makes it one, or says why it cannot).
 */
export async function checkBeforeSync(store: string, reporter: Reporter): Promise<void> {
  const { checkStore, StoreError } = await import('@orgreport/store');
  const check = await checkStore(store).catch((error: unknown) => {
    if (error instanceof StoreError) return null;
    throw error;
  });
  const [first, ...others] = check?.damaged ?? [];
  for (const d of others) reporter.warn(`the store is damaged too: ${d.file} ${d.problem}`);
  if (first) throw first;
}

/**
 * The organization a run is recorded under when the run failed before it learnt the id from the
 * API: the id the configuration gives, else the id whose stored name is the configured name (so that
 * a watch of that organization sees the failure), else the configured name as a slug (`org_id=acme`).
 */
async function fallbackOrgId(store: string, config: Settings): Promise<string> {
  const configured = configuredOrgId(config);
  if (configured) return configured;
  const name = config.organizationName;
  if (name) {
    const { listOrganizations } = await import('@orgreport/store');
    const named = (await listOrganizations(store).catch(() => [])).filter(
      (o) => o.name.toLowerCase() === name.toLowerCase(),
    );
    if (named.length === 1) return named[0]!.orgId;
  }
  return slug(name ?? '');
}

/** What a sync run did, for its record. */
export interface SyncRunOutcome {
  /** When it started. */
  started: Date;
  /** The organization id, once the run learnt it. */
  orgId?: string;
  /** What stopped it; undefined when it stored what it was asked for. */
  error?: unknown;
}

/**
 * Records a run in the store (secrets masked in its error). A record that cannot be written is a
 * warning: the run's own outcome stands.
 */
export async function recordRun(
  store: string,
  config: Settings,
  outcome: SyncRunOutcome,
  reporter: Reporter,
  ctx: RunContext,
): Promise<void> {
  try {
    const { recordSyncRun } = await import('@orgreport/store');
    const orgId = outcome.orgId ?? (await fallbackOrgId(store, config));
    const failed = outcome.error !== undefined;
    const run = await recordSyncRun(
      store,
      orgId,
      {
        at: outcome.started.toISOString(),
        day: config.today,
        ok: !failed,
        ...(failed && { error: messageOf(outcome.error) }),
      },
      { secrets: [...ctx.secrets] },
    );
    reporter.debug(`sync run recorded for organization ${orgId}: ${JSON.stringify(run)}`);
  } catch (error) {
    reporter.warn(`the run was not recorded in the store ${store}: ${messageOf(error)}`);
  }
}
