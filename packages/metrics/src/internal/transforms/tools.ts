/**
 * Tools, MCP servers, skills, slash commands and hooks of a span, from the `/tools` days.
 */
import type { ToolsDay } from '@orgreport/api-core';
import type { HookRow, McpServerRow, NamedCount } from '../../model.ts';
import { type MergedName, mergeCaseVariants, rankNamedCounts, sumByName } from './named-counts.ts';

/** The name under which parsing artifacts are counted. */
export const UNPARSEABLE = '(unparseable)';

const IDENTIFIER_RE = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/;

/**
 * True when a tool name is a plausible identifier: 1 to 128 characters, starting with an ASCII
 * letter or underscore, followed only by ASCII letters, digits, underscores or hyphens (MCP tools
 * arrive as `mcp__server__tool`). Anything else (quotes, braces, spaces, dots, control tokens) is
 * a parsing artifact.
 *
 * @example
 * isPlausibleToolName('mcp__github__create_issue') // true
 * isPlausibleToolName('Read"}') // false
 */
export function isPlausibleToolName(name: string): boolean {
  return IDENTIFIER_RE.test(name);
}

/** MCP tool names merge across the letter case of their server part (`mcp__GitHub__x` = `mcp__github__x`). */
function toolMergeKey(name: string): string {
  const m = /^mcp__(.+?)__(.*)$/.exec(name);
  return m ? `mcp__${m[1]!.toLowerCase()}__${m[2]}` : name;
}

/**
 * The top tools by invocations; names that are not plausible identifiers are counted under
 * "(unparseable)" and left out of the list.
 *
 * @example
 * topTools(days, 10) // { top: [...], total, unparseable: 2, unparseableNames: ['Read"}'] }
 */
export function topTools(
  days: readonly ToolsDay[],
  limit: number,
): { top: NamedCount[]; total: number; unparseable: number; unparseableNames: string[] } {
  const sums = sumByName(
    days.flatMap((d) => (d.by_tool ?? []).map((t) => ({ name: t.tool, count: t.invocations }))),
  );
  const plausible = new Map<string, number>();
  let unparseable = 0;
  const unparseableNames: string[] = [];
  for (const [name, count] of sums) {
    if (isPlausibleToolName(name)) plausible.set(name, count);
    else {
      unparseable += count;
      unparseableNames.push(name);
    }
  }
  let total = 0;
  for (const d of days) total += d.tool_calls;
  const merged = new Map(mergeCaseVariants(plausible, toolMergeKey).map((m) => [m.name, m.count]));
  return {
    top: rankNamedCounts(merged, total, limit),
    total,
    unparseable,
    unparseableNames: unparseableNames.sort(),
  };
}

/**
 * MCP servers by invocations, names that differ only in case merged under the most frequent spelling.
 *
 * @example
 * mergeMcpServers(days) // [{ name: 'github', count: 7, share: 1, spellings: [{ name: 'github', count: 5 }, { name: 'GitHub', count: 2 }] }]
 */
export function mergeMcpServers(days: readonly ToolsDay[]): { total: number; servers: McpServerRow[] } {
  const sums = sumByName(
    days.flatMap((d) => (d.mcp_by_server ?? []).map((s) => ({ name: s.server, count: s.invocations }))),
  );
  const merged: MergedName[] = mergeCaseVariants(sums);
  let total = 0;
  for (const m of merged) total += m.count;
  return { total, servers: merged.map((m) => ({ ...m, share: total > 0 ? m.count / total : null })) };
}

/**
 * Skills and slash commands by count (the share is of the day totals `skills_invocations`,
 * `slash_commands_invocations`).
 *
 * @example
 * skillsAndCommands(days, 10).skills[0] // { name: 'code-review', count: 12, share: 0.8 }
 */
export function skillsAndCommands(
  days: readonly ToolsDay[],
  limit: number,
): { skillsTotal: number; skills: NamedCount[]; slashCommandsTotal: number; slashCommands: NamedCount[] } {
  let skillsTotal = 0;
  let slashCommandsTotal = 0;
  for (const d of days) {
    skillsTotal += d.skills_invocations ?? 0;
    slashCommandsTotal += d.slash_commands_invocations ?? 0;
  }
  return {
    skillsTotal,
    skills: rankNamedCounts(sumByName(days.flatMap((d) => d.skills_by_name ?? [])), skillsTotal, limit),
    slashCommandsTotal,
    slashCommands: rankNamedCounts(
      sumByName(days.flatMap((d) => d.slash_commands_by_name ?? [])),
      slashCommandsTotal,
      limit,
    ),
  };
}

/**
 * Hook executions by event, each with its matcher/command breakdown.
 *
 * @example
 * hooksByEvent(days) // { total: 40, hooks: [{ event: 'PostToolUse', count: 30, share: 0.75, commands: [...] }] }
 */
export function hooksByEvent(days: readonly ToolsDay[]): { total: number; hooks: HookRow[] } {
  let total = 0;
  for (const d of days) total += d.hooks_invocations ?? 0;
  const events = new Map<
    string,
    Map<string, { matcher: string | null; command: string | null; count: number }>
  >();
  for (const d of days) {
    for (const h of d.hooks_by_event ?? []) {
      const commands = events.get(h.event) ?? new Map();
      events.set(h.event, commands);
      const key = `${h.matcher ?? ''}\u0000${h.command ?? ''}`;
      const entry = commands.get(key) ?? { matcher: h.matcher ?? null, command: h.command ?? null, count: 0 };
      entry.count += h.count;
      commands.set(key, entry);
    }
  }
  const hooks = [...events].map(([event, commands]) => {
    const list = [...commands.values()].sort((a, b) => b.count - a.count);
    let count = 0;
    for (const c of list) count += c.count;
    return { event, count, share: total > 0 ? count / total : null, commands: list };
  });
  hooks.sort((a, b) => b.count - a.count || (a.event < b.event ? -1 : 1));
  return { total, hooks };
}
