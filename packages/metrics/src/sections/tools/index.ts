/**
 * Tools, MCP servers, skills, slash commands and hooks: the top lists with their shares; the
 * workbook's Models, Tools and MCP spellings sheets; the checks of merged MCP spellings and
 * unparseable tool names.
 */
import { fileURLToPath } from 'node:url';
import { type Run, runOf } from '../../internal/run.ts';
import { costColumn, field } from '../../internal/sheet-columns.ts';
import { mcpCaseMerged, unparseableToolNames } from '../../internal/transforms/data-quality.ts';
import {
  hooksByEvent,
  mergeMcpServers,
  skillsAndCommands,
  topTools,
} from '../../internal/transforms/tools.ts';
import { listSheet } from '../../list-sheet.ts';
import type {
  DataQualityFinding,
  McpServerRow,
  ModelCreditsRow,
  NamedCount,
  ReportModel,
} from '../../model.ts';
import type { SheetColumn } from '../../section.ts';
import { builtinSection } from '../builtin.ts';

/** The period's top tools, once per run (the figures and the check both read it). */
const topToolsOf = (run: Run) => run.once('tools.top', () => topTools(run.rows.tools, run.topN));

/** Columns of the `Models` sheet. */
function modelColumns(model: ReportModel): SheetColumn<ModelCreditsRow>[] {
  return [
    field('model_id', 'text'),
    field('model_tier', 'text'),
    field('credits', 'integer'),
    field('share', 'share'),
    ...costColumn<ModelCreditsRow>(model, (m) => m.credits),
    field('input_tokens', 'integer'),
    field('output_tokens', 'integer'),
  ];
}

/**
 * One row of the `Tools` sheet: tools, MCP servers, skills, slash commands and hooks in one list; a
 * hook's row is one matcher and command of its event (the MCP servers' spellings have their sheet).
 */
interface ToolSheetRow {
  category: string;
  name: string;
  matcher: string | null;
  command: string | null;
  count: number;
  share: number | null;
}

function toolColumns(): SheetColumn<ToolSheetRow>[] {
  return [
    field('category', 'text'),
    field('name', 'text'),
    field('matcher', 'text'),
    field('command', 'text'),
    field('count', 'integer'),
    field('share', 'share'),
  ];
}

/** The `MCP spellings` sheet: one row per merged MCP server and spelling seen, most frequent first. */
const mcpSpellings = listSheet({
  name: 'MCP spellings',
  rows: (model) => model.tools.mcpServers,
  key: [field<McpServerRow, 'name'>('name', 'text', 'server')],
  items: (server) => server.spellings,
  columns: [
    { header: 'spelling', kind: 'text', value: (s) => s.name },
    { header: 'count', kind: 'integer', value: (s) => s.count },
  ],
});

function toolRows(model: ReportModel): ToolSheetRow[] {
  const t = model.tools;
  const named = (category: string, x: NamedCount): ToolSheetRow => ({
    category,
    name: x.name,
    matcher: null,
    command: null,
    count: x.count,
    share: x.share,
  });
  return [
    ...t.top.map((x) => named('tool', x)),
    ...t.mcpServers.map((x) => named('mcp_server', x)),
    ...t.skills.map((x) => named('skill', x)),
    ...t.slashCommands.map((x) => named('slash_command', x)),
    ...t.hooks.flatMap((h) =>
      h.commands.length
        ? h.commands.map((c) => ({
            category: 'hook',
            name: h.event,
            matcher: c.matcher,
            command: c.command,
            count: c.count,
            share: model.tools.hooksTotal > 0 ? c.count / model.tools.hooksTotal : null,
          }))
        : [named('hook', { name: h.event, count: h.count, share: h.share })],
    ),
  ];
}

/** Items of each list the organization-context page shows. */
const CONTEXT_TOP = 5;

/**
 * A scope's tools: its people's calls of each kind, summed from their rows. The API names tools,
 * MCP servers, skills, commands and hooks for the whole organization only: the lists stay empty
 * here and the organization's stand on the scope's organization-context page.
 */
function scopeTools(run: Run): ReportModel['tools'] {
  const sum = (field: 'tool_calls' | 'mcp_calls' | 'skill_calls' | 'slash_commands' | 'hooks') =>
    run.daily.reduce((a, d) => a + d[field], 0);
  return {
    total: sum('tool_calls'),
    top: [],
    unparseable: 0,
    mcpTotal: sum('mcp_calls'),
    mcpServers: [],
    skillsTotal: sum('skill_calls'),
    skills: [],
    slashCommandsTotal: sum('slash_commands'),
    slashCommands: [],
    hooksTotal: sum('hooks'),
    hooks: [],
  };
}

export const tools = builtinSection('tools', {
  id: 'tools',
  title: 'Tools, MCP servers, skills, slash commands and hooks',
  organizationContext: (organization) => [
    {
      id: 'tools.top',
      title: 'Most used tools',
      rows: organization.tools.top
        .slice(0, CONTEXT_TOP)
        .map((t) => ({ label: t.name, value: t.count, kind: 'integer' as const })),
    },
    {
      id: 'tools.mcpServers',
      title: 'MCP servers',
      rows: organization.tools.mcpServers
        .slice(0, CONTEXT_TOP)
        .map((t) => ({ label: t.name, value: t.count, kind: 'integer' as const })),
    },
  ],
  compute: (context) => {
    const run = runOf(context);
    if (context.scope) return scopeTools(run);
    const top = topToolsOf(run);
    const mcp = mergeMcpServers(run.rows.tools);
    const hooks = hooksByEvent(run.rows.tools);
    return {
      total: top.total,
      top: top.top,
      unparseable: top.unparseable,
      mcpTotal: mcp.total,
      mcpServers: mcp.servers,
      ...skillsAndCommands(run.rows.tools, run.topN),
      hooksTotal: hooks.total,
      hooks: hooks.hooks,
    };
  },
  checks: (context, tools) => {
    const top = topToolsOf(runOf(context));
    return [
      mcpCaseMerged(tools.mcpServers),
      unparseableToolNames(top.unparseable, top.unparseableNames),
    ].filter((f): f is DataQualityFinding => f !== null);
  },
  definitions: [
    {
      id: 'tools',
      term: 'Tools, MCP servers, skills, commands, hooks',
      text: 'MCP server names that differ only in letter case are one server, shown under its most frequent spelling (MCP tool names mcp__server__tool merge the same way). A tool name is a plausible identifier when it has 1 to 128 characters, starts with an ASCII letter or underscore and contains only ASCII letters, digits, underscores and hyphens; other names are parsing artifacts, counted under "(unparseable)", left out of the top lists and reported under data quality.',
    },
  ],
  partial: { file: fileURLToPath(new URL('./tools.hbs', import.meta.url)) },
  sheets: [
    { name: 'Models', columns: modelColumns, rows: (model) => model.credits.byModel },
    { name: 'Tools', columns: toolColumns, rows: toolRows },
    mcpSpellings,
  ],
});
