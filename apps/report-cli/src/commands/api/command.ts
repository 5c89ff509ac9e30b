/** `orgreport api <resource> <action>`: the command's flags and help; its work loads only when it runs. */
import { type Command, Option } from 'commander';
import type { CommandContext } from '../../context.ts';
import { CONNECTION, withFlags } from '../../options.ts';

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
  limit: () =>
    new Option('--limit <n>', 'items each request asks for (the page size); every page is fetched'),
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

/** Values of the example of an operation's help, by flag (others show as `<name>`). */
const EXAMPLE_VALUES: Record<string, string> = { '--start-date': '2026-10-01', '--end-date': '2026-10-07' };

/** An operation's help example: its arguments and the options it requires. */
function exampleOf(op: (typeof API_OPERATIONS)[number], options: readonly Option[]): string {
  const required = options
    .filter((o) => o.mandatory && o.long)
    .map((o) => `${o.long} ${EXAMPLE_VALUES[o.long!] ?? `<${o.attributeName()}>`}`);
  const words = ['orgreport api', op.resource, op.action, ...(op.args ?? []), ...required];
  return `\nWith ORGREPORT_BASE_URL and ORGREPORT_API_KEY set (orgreport emulator serves an organization to try).\nExample: ${words.join(' ')}`;
}

export function apiCommand(program: Command, ctx: CommandContext): void {
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
    const options = (op.options ?? []).map((option) => option());
    for (const option of options) command.addOption(option);
    command.addHelpText('after', exampleOf(op, options));
    if (op.list) {
      command.option('--all', 'follow every page').option('--max-items <n>', 'stop after this many items');
    }
    command.action(async (...args: unknown[]) => {
      const flags = args[op.args?.length ?? 0] as Record<string, unknown>;
      const positional = args.slice(0, op.args?.length ?? 0) as string[];
      await (await import('./api.ts')).api(op.resource, op.action, positional, flags, ctx);
    });
  }
}
