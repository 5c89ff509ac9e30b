/**
 * The `orgreport` program: every command and its flags, with the command's code loaded only when it
 * runs (so `orgreport --help` and `orgreport hook record` never load Puppeteer, ExcelJS or Fastify).
 * Each command module exports an options interface and one async function.
 */

import { EXIT, type ExitCode } from '@orgreport/pipeline/errors';
import { Command, CommanderError, Option } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { environmentVariables } from './config/settings.ts';
import type { CommandContext } from './context.ts';
import { COMMON, CONNECTION, RENDERING, withFlags } from './options.ts';

export const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  anything else (network or server failure, mail not sent, limits not applied)
  2  usage or input error (bad flag, month, config value, input or snapshot file)
  3  authentication or permission (missing or invalid API key, a key without the needed role)

Environment: ${environmentVariables().join(', ')}.
Flags win over the environment, which wins over the config file (--config).`;

/** One API operation of `orgreport api <resource> <action>`. */
interface ApiOperation {
  resource: string;
  action: string;
  description: string;
  args?: string[];
  options?: Array<() => Option>;
  list?: boolean;
}

const opt = {
  startDate: () => new Option('--start-date <YYYY-MM-DD>', 'first day').makeOptionMandatory(),
  endDate: () => new Option('--end-date <YYYY-MM-DD>', 'last day (before today, UTC)').makeOptionMandatory(),
  groupBy: (value: string) => () => new Option('--group-by <field>', `group rows: ${value}`).choices([value]),
  limit: () => new Option('--limit <n>', 'items per page'),
  repoId: () => new Option('--repo-id <id>', 'only reports of this repository'),
  computerId: () => new Option('--computer-id <id>', 'the computer to query directly'),
  computerIdRequired: () => new Option('--computer-id <id>', 'computer to connect').makeOptionMandatory(),
  cwd: () => new Option('--cwd <dir>', 'working directory on the computer'),
  settings: () => new Option('--settings <json>', 'sessionSettings as JSON'),
  file: () =>
    new Option(
      '--file <file>',
      'CSV or XLSX with email,limit columns, or a JSON array of {email, limit}',
    ).makeOptionMandatory(),
};

export const API_OPERATIONS: ApiOperation[] = [
  {
    resource: 'readiness',
    action: 'list',
    description: 'list readiness reports',
    options: [opt.repoId, opt.limit],
    list: true,
  },
  {
    resource: 'analytics',
    action: 'tokens',
    description: 'credits per day',
    options: [opt.startDate, opt.endDate, opt.groupBy('model')],
  },
  {
    resource: 'analytics',
    action: 'tools',
    description: 'tool calls per day',
    options: [opt.startDate, opt.endDate, opt.groupBy('tool_name')],
  },
  {
    resource: 'analytics',
    action: 'activity',
    description: 'active users, sessions, messages per day',
    options: [opt.startDate, opt.endDate, opt.groupBy('client')],
  },
  {
    resource: 'analytics',
    action: 'productivity',
    description: 'files, commits, PRs per day',
    options: [opt.startDate, opt.endDate],
  },
  {
    resource: 'analytics',
    action: 'users',
    description: 'per-user metrics per day',
    options: [opt.startDate, opt.endDate, opt.limit],
    list: true,
  },
  {
    resource: 'controls',
    action: 'history',
    description: 'enterprise-control changes, newest first',
    options: [opt.limit],
    list: true,
  },
  {
    resource: 'sessions',
    action: 'create',
    description: 'create a session',
    options: [opt.computerIdRequired, opt.cwd, opt.settings],
  },
  {
    resource: 'sessions',
    action: 'get',
    description: 'get a session',
    args: ['<sessionId>'],
    options: [opt.computerId],
  },
  {
    resource: 'sessions',
    action: 'update',
    description: "update a session's settings",
    args: ['<sessionId>'],
    options: [opt.settings],
  },
  {
    resource: 'messages',
    action: 'get',
    description: 'get a message of a session',
    args: ['<sessionId>', '<messageId>'],
    options: [opt.computerId],
  },
  { resource: 'computers', action: 'list', description: 'list computers' },
  {
    resource: 'users',
    action: 'list',
    description: 'list organization users',
    options: [opt.limit],
    list: true,
  },
  {
    resource: 'limits',
    action: 'set',
    description: 'set user credit limits (batches of 100)',
    options: [opt.file],
  },
];

/** An exit override: commander's errors end with `code`; help and version keep their 0. */
function exitWith(code: ExitCode): (error: CommanderError) => never {
  return (error) => {
    throw error.exitCode === 0 ? error : new CommanderError(code, error.code, error.message);
  };
}

/** Builds the program; actions receive `ctx` and load their command module on demand. */
export function createProgram(ctx: CommandContext): Command {
  const program = new Command('orgreport')
    .description('Monthly reports (PDF, Excel, HTML, JSON) from an AI coding-agent service organization API.')
    .version(packageJson.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    // Set before any subcommand is added, so that every subcommand inherits them.
    .exitOverride(exitWith(EXIT.usage))
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
    });

  withFlags(
    program
      .command('monthly')
      .description('fetch, compute, render and deliver the monthly report')
      .addHelpText('after', '\nExample: orgreport monthly --demo'),
    ...CONNECTION,
    'month',
    'partial',
    'demo',
    'demoUsers',
    'orgName',
    'org',
    'allOrgs',
    'hookLog',
    'store',
    'json',
    'scope',
    ...RENDERING,
  ).action(async (flags) => (await import('./commands/monthly.ts')).monthly(flags, ctx));

  withFlags(
    program
      .command('distribute')
      .description(
        "make and deliver every reader's report of a month: each manager their people's, each owner their cost center's, named readers the organization's (a plan says who gets what)",
      )
      .addHelpText(
        'after',
        '\nThe month is read once (from the store or a fresh fetch); each delivery is recorded in a ledger, so a rerun sends only what is not delivered yet.\nScopes with fewer people than the minimum group size get no report.\nExample: orgreport distribute --demo --dry-run',
      ),
    ...CONNECTION,
    'month',
    'partial',
    'demo',
    'demoUsers',
    'orgName',
    'org',
    'hookLog',
    'store',
    'json',
    'plan',
    ...RENDERING,
  )
    .option(
      '--dry-run',
      'print the plan resolved (every recipient, scope, formats, people, scopes held back), send nothing',
    )
    .option(
      '--shard <K/N>',
      "this job's share of the recipients, for N jobs of a scheduler (its own ledger part)",
    )
    .option(
      '--resend <recipients>',
      'send again what the ledger holds as delivered: all, or comma-separated recipients',
    )
    .action(async (flags) => (await import('./commands/distribute.ts')).distribute(flags, ctx));

  withFlags(
    program
      .command('sync')
      .description(
        'fetch into a Parquet store the days it does not hold yet (from 2026-01-14 or --since up to yesterday, UTC)',
      )
      .addHelpText(
        'after',
        '\nSafe to run any time: a second sync fetches nothing; a killed sync leaves every partition whole.\nExample: orgreport sync --demo --store ./store --since 2026-09-01',
      ),
    ...CONNECTION,
    'store',
    'demo',
    'demoUsers',
    'orgName',
    'org',
    'allOrgs',
    'hookLog',
    'json',
  )
    .option('--since <YYYY-MM-DD>', 'first day wanted (default and earliest: 2026-01-14)')
    .option('--until <YYYY-MM-DD>', 'last day wanted (default and latest: yesterday, UTC)')
    .option('--refetch <months>', 'months fetched again whole, replacing their partitions (YYYY-MM,...)')
    .option(
      '--rebuild',
      'fetch nothing: make every dataset again from the raw responses the store kept (after damage or an upgrade)',
    )
    .action(async (flags) => (await import('./commands/sync.ts')).sync(flags, ctx));

  withFlags(
    program
      .command('rollup')
      .description(
        'one report over every organization of a store, from the store alone: a row per organization and their total',
      )
      .addHelpText(
        'after',
        '\nThe store must hold the month and the one before it of each organization (orgreport sync --all-orgs).\nExample: orgreport rollup --store ./store --month 2026-10',
      ),
    ...COMMON,
    'store',
    'month',
    'partial',
    'orgName',
    'json',
    ...RENDERING,
  ).action(async (flags) => (await import('./commands/rollup.ts')).rollup(flags, ctx));

  withFlags(
    program
      .command('query')
      .description("run SQL over a store's datasets (user_days, tokens_daily, ...; columns in docs/store.md)")
      .argument('<sql>', 'the query, e.g. "SELECT month, sum(billable_tokens) FROM user_days GROUP BY ALL"')
      .addHelpText(
        'after',
        '\nEvery dataset is a table of its name; org_id and month are columns too.\nExample: orgreport query --store ./store "SELECT month, count(DISTINCT user_id) FROM user_days GROUP BY ALL ORDER BY 1"',
      ),
    ...COMMON,
    'store',
  )
    .option('--format <format>', 'table, csv or json (one object per line)', 'table')
    .option('--max-rows <n>', 'rows printed at most (default 10000)')
    .action(async (sql, flags) => (await import('./commands/query.ts')).query(sql, flags, ctx));

  withFlags(
    program
      .command('watch')
      .description(
        'alert rules over a store after the daily sync: security changes, budgets and forecasts, spikes, stale data',
      )
      .addHelpText(
        'after',
        '\nRules from the config file\'s "watch" key (docs/watch.md); each alert is new once, its state kept in <store>/_watch/.\nNew alerts go to the routes of "watch.routes" and to --deliver (the organization\'s alerts, no one\'s about a person), each once (the ledger in <store>/_ledger/).\nAlerts are not errors: the exit code is 0 whatever fires; 1 when the store cannot be read or a delivery failed.\nExample: orgreport sync --store ./store && orgreport watch --store ./store --directory people.csv --deliver dir:./alerts',
      ),
    ...COMMON,
    'store',
    'org',
    'allOrgs',
    'directory',
    'json',
    'deliver',
    'destinations',
    'smtpUrl',
    'mailFrom',
    'maxPerMinute',
    'unknown',
    'ledger',
    'minGroupSize',
    'fileAccess',
    'demo',
    'demoUsers',
  )
    .option('--dry-run', 'print what would fire and where it would go; record and send nothing')
    .option(
      '--backtest',
      "print the forecast's error over the store's history instead (by days into the month)",
    )
    .action(async (flags) => (await import('./commands/watch.ts')).watch(flags, ctx));

  withFlags(
    program.command('fetch').description('fetch a month into a snapshot directory only'),
    ...CONNECTION,
    'month',
    'partial',
    'demo',
    'demoUsers',
    'orgName',
    'hookLog',
    'out',
    'json',
  )
    .option('--snapshot <dir>', 'snapshot directory to write (default <out>/snapshot)')
    .action(async (flags) => (await import('./commands/fetch.ts')).fetch(flags, ctx));

  withFlags(
    program.command('render').description('re-render a report from a snapshot directory, offline (no key)'),
    ...COMMON,
    'json',
    ...RENDERING,
  )
    .requiredOption('--snapshot <dir>', 'snapshot directory (written by monthly or fetch)')
    .action(async (flags) => (await import('./commands/render.ts')).render(flags, ctx));

  program
    .command('emulator')
    .description('run the API emulator over a synthetic organization until stopped (Ctrl-C)')
    .option('--port <port>', 'port on 127.0.0.1 (0 = any free port)', '4020')
    .option('--seed <n>', 'seed of the synthetic organization', '1')
    .option('--users <n>', 'number of users', '200')
    .option('--today <YYYY-MM-DD>', 'the emulated today (data runs to the day before; default the clock)')
    .option('--keys <list>', 'API keys per role: owner:K1,manager:K2,member:K3')
    .option('--latency <ms>', 'added latency per request in ms')
    .option('--fault-rate <r>', 'share of requests answered with a fault, 0..1')
    .option(
      '--fault-kinds <list>',
      'faults to draw from, comma-separated: server-error, unavailable, rate-limit, drop, malformed (default all)',
    )
    .option('--retry-after <s>', 'seconds sent in Retry-After with an injected 429 (default 1)')
    .option('--hostile', 'plant hostile values (markup, formulas, long strings) in the data')
    .option('--drift', 'simulate schema drift: unknown fields, renamed settings, new enum values')
    .option(
      '--paging <spelling>',
      '/users paging fields: spec (has_more, next_cursor) or published (hasMore, nextCursor)',
      'spec',
    )
    .option(
      '--plant <event>',
      "plant an event on a day (repeatable): security-change:YYYY-MM-DD:SETTING (an admin flips the boolean setting, e.g. sandbox.enabled) or credit-spike:USER-INDEX:YYYY-MM-DD:FACTOR (that user's credits multiplied from the day on)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--directory <file>',
      "write the organization's people directory (email,team,cost_center,manager,... as CSV) and exit: the demo's with the defaults",
    )
    .option('-q, --quiet', 'print only the addresses and keys')
    .action(async (flags) => (await import('./commands/emulator.ts')).emulator(flags, ctx));

  const limits = program.command('limits').description('per-user credit limits');
  withFlags(
    limits
      .command('apply')
      .description('set limits from a CSV, JSON or XLSX of email,limit (every row validated, batches of 100)')
      .argument('<file>', 'a .csv, .json or .xlsx file')
      .addHelpText(
        'after',
        '\nWith a store, every limit the API accepted is recorded in it (_limits/; the API cannot read limits back).',
      ),
    ...CONNECTION,
    'store',
  )
    .option('--dry-run', 'validate and print, send nothing')
    .action(async (file, flags) =>
      (await import('./commands/limits-apply.ts')).limitsApply(file, flags, ctx),
    );
  withFlags(
    limits
      .command('template')
      .description("write a workbook of each user's credits with an empty limit column"),
    ...CONNECTION,
    'month',
    'partial',
    'demo',
    'demoUsers',
  )
    .requiredOption('--out <file>', 'the .xlsx file to write')
    .action(async (flags) => (await import('./commands/limits-template.ts')).limitsTemplate(flags, ctx));

  const api = program
    .command('api')
    .description('call any API operation; prints JSON (one object per line for lists)');
  const resources = new Map<string, Command>();
  for (const op of API_OPERATIONS) {
    let resource = resources.get(op.resource);
    if (!resource) {
      resource = api.command(op.resource).description(`${op.resource} operations`);
      resources.set(op.resource, resource);
    }
    const command = withFlags(resource.command(op.action).description(op.description), ...CONNECTION);
    for (const arg of op.args ?? []) command.argument(arg);
    for (const option of op.options ?? []) command.addOption(option());
    if (op.list) {
      command.option('--all', 'follow every page').option('--max-items <n>', 'stop after this many items');
    }
    command.action(async (...args: unknown[]) => {
      const flags = args[op.args?.length ?? 0] as Record<string, unknown>;
      const positional = args.slice(0, op.args?.length ?? 0) as string[];
      await (await import('./commands/api.ts')).api(op.resource, op.action, positional, flags, ctx);
    });
  }

  const hook = program.command('hook').description('record agent hook events for the report');
  withFlags(
    hook
      .command('record')
      .description('read one hook event (JSON) from stdin and append it to the hook log; never blocks'),
    'config',
    'hookLog',
    'quiet',
    'verbose',
  )
    .option('--timeout <ms>', 'give up reading stdin after this long', '2000')
    // Some agents read a hook's exit code 2 as "block the agent": a mistyped hook command line must
    // not block every tool call, so its usage errors end with 1 like its other failures.
    .exitOverride(exitWith(EXIT.failure))
    .addHelpText(
      'after',
      '\nA bad or missing event prints a message on stderr and exits 1 (never 2: agents may read 2 as "block").',
    )
    .action(async (flags) => (await import('./commands/hook.ts')).hookRecord(flags, ctx));
  withFlags(
    hook.command('config').description('print the hooks configuration for the four events'),
    'config',
    'hookLog',
  )
    .option('--command <cmd>', 'how the agent runs orgreport', 'orgreport')
    .option('--timeout <seconds>', 'hook timeout in seconds', '5')
    .action(async (flags) => (await import('./commands/hook.ts')).hookConfig(flags, ctx));

  return program;
}
