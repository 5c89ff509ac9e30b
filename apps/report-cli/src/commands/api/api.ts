/**
 * `orgreport api <resource> <action>`: every API operation from the terminal. Prints JSON: one object
 * per line for lists (`--all` follows pages, `--max-items` stops early), one object otherwise.
 */
import { resolve } from 'node:path';
import type { OrgClient } from '@orgreport/api-core';
import { connect } from '@orgreport/pipeline/connect';
import { CliError, UsageError } from '@orgreport/pipeline/errors';
import { positiveInteger } from '@orgreport/pipeline/input';
import { readLimitsFile } from '@orgreport/pipeline/limits';
import type { ConfigFlags } from '../../config/config.ts';
import { type CommandContext, setUp } from '../../context.ts';

export interface ApiOptions extends ConfigFlags {
  startDate?: string;
  endDate?: string;
  groupBy?: string;
  limit?: string;
  repoId?: string;
  computerId?: string;
  cwd?: string;
  settings?: string;
  file?: string;
  all?: boolean;
  maxItems?: string;
}

function jsonFlag(value: string | undefined, flag: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new UsageError(`${flag}: not valid JSON (${(error as Error).message})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`${flag}: expected a JSON object`);
  return parsed as Record<string, unknown>;
}

type Printer = (value: unknown) => void;

/** Prints the items of a listing: the first page, every page with `--all`, at most `--max-items`. */
async function printList(
  list: { pages(): AsyncIterable<{ items: unknown[] }> },
  all: boolean,
  maxItems: number | undefined,
  print: Printer,
): Promise<void> {
  let printed = 0;
  for await (const page of list.pages()) {
    for (const item of page.items) {
      if (maxItems !== undefined && printed >= maxItems) return;
      print(item);
      printed++;
    }
    if (!all) return;
  }
}

async function call(
  client: OrgClient,
  op: string,
  args: string[],
  o: ApiOptions,
  print: Printer,
  cwd: string,
): Promise<boolean> {
  const days = { startDate: o.startDate!, endDate: o.endDate! };
  const limit = positiveInteger(o.limit, '--limit');
  const maxItems = positiveInteger(o.maxItems, '--max-items');
  const all = Boolean(o.all);
  // Without --all, one page is asked for, but no more than --max-items items.
  const pageLimit = limit ?? (maxItems !== undefined && !all ? Math.min(maxItems, 100) : undefined);
  const printRows = (rows: unknown[]) => {
    for (const row of rows) print(row);
  };
  switch (op) {
    case 'readiness list':
      await printList(
        client.readiness.list({ repoId: o.repoId, limit: pageLimit, maxItems }),
        all,
        maxItems,
        print,
      );
      return true;
    case 'analytics tokens':
      printRows(
        (await client.analytics.tokens({ ...days, groupBy: o.groupBy as 'model' | undefined } as never)).data,
      );
      return true;
    case 'analytics tools':
      printRows(
        (await client.analytics.tools({ ...days, groupBy: o.groupBy as 'tool_name' | undefined } as never))
          .data,
      );
      return true;
    case 'analytics activity':
      printRows(
        (await client.analytics.activity({ ...days, groupBy: o.groupBy as 'client' | undefined } as never))
          .data,
      );
      return true;
    case 'analytics productivity':
      printRows((await client.analytics.productivity(days)).data);
      return true;
    case 'analytics users':
      await printList(client.analytics.users({ ...days, limit: pageLimit, maxItems }), all, maxItems, print);
      return true;
    case 'controls history':
      await printList(client.controls.history({ limit: pageLimit, maxItems }), all, maxItems, print);
      return true;
    case 'users list':
      await printList(client.orgUsers.list({ limit: pageLimit, maxItems }), all, maxItems, print);
      return true;
    case 'computers list':
      printRows(await client.computers.list());
      return true;
    case 'sessions create':
      print(
        await client.sessions.create({
          computerId: o.computerId!,
          cwd: o.cwd,
          sessionSettings: jsonFlag(o.settings, '--settings'),
        } as never),
      );
      return true;
    case 'sessions get':
      print(await client.sessions.get(args[0]!, { computerId: o.computerId }));
      return true;
    case 'sessions update':
      print(
        await client.sessions.update(args[0]!, {
          sessionSettings: jsonFlag(o.settings, '--settings'),
        } as never),
      );
      return true;
    case 'messages get':
      print(await client.sessions.messages.get(args[0]!, args[1]!, { computerId: o.computerId }));
      return true;
    case 'limits set': {
      const parsed = await readLimitsFile(resolve(cwd, o.file!), `--file ${o.file}`);
      if (parsed.errors.length > 0) {
        const first = parsed.errors[0]!;
        throw new UsageError(
          `${o.file}: ${parsed.errors.length} invalid row(s); row ${first.row}: ${first.message}`,
        );
      }
      const result = await client.creditLimits.set(parsed.rows.map(({ email, limit }) => ({ email, limit })));
      print({
        updated: result.updated.map(({ email, limit }) => ({ email, limit })),
        errors: [
          ...result.rejected.map(({ email, error }) => ({ email, error })),
          ...result.notSent.map(({ entry, reason }) => ({
            email: (entry as { email?: string }).email,
            error: reason,
          })),
        ],
      });
      return result.rejected.length === 0 && result.notSent.length === 0;
    }
    default:
      throw new UsageError(`unknown operation: api ${op}`);
  }
}

/** Runs `api <resource> <action>`. */
export async function api(
  resource: string,
  action: string,
  args: string[],
  options: ApiOptions,
  ctx: CommandContext,
): Promise<void> {
  const { config, reporter } = setUp(options, ctx);
  const connection = await connect(config, reporter, ctx);
  try {
    const ok = await call(
      connection.client,
      `${resource} ${action}`,
      args,
      options,
      (value) => ctx.io.stdout.write(`${JSON.stringify(value)}\n`),
      ctx.io.cwd,
    );
    if (!ok) throw new CliError('some credit limits were not set (see "errors")');
  } finally {
    await connection.close();
  }
}
