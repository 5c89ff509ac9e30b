import { describe, expect, it } from 'vitest';
import { tokensDay, toolsDay } from '../../testing/snapshot-builder.ts';
import { creditsByModel, creditsByTier } from './credits.ts';
import { hooksByEvent, isPlausibleToolName, mergeMcpServers, topTools } from './tools.ts';

describe('tool names', () => {
  it('accepts identifiers and MCP tool names, rejects parsing artifacts', () => {
    for (const ok of ['Read', 'mcp__github__create_issue', 'todo-write', '_private'])
      expect(isPlausibleToolName(ok)).toBe(true);
    for (const bad of [
      'Read"}',
      '{"name": "Edit',
      'Execute<|end|>',
      'Grep\\n',
      'functions.Read',
      '',
      '9lives',
      'x'.repeat(129),
    ]) {
      expect(isPlausibleToolName(bad)).toBe(false);
    }
  });

  it('counts artifacts under "(unparseable)" and leaves them out of the top list', () => {
    const days = [
      toolsDay('2026-03-02', {
        tool_calls: 10,
        by_tool: [
          { tool: 'Read', invocations: 6 },
          { tool: 'Read"}', invocations: 1 },
          { tool: 'Edit', invocations: 3 },
        ],
      }),
      toolsDay('2026-03-03', {
        tool_calls: 5,
        by_tool: [
          { tool: 'Edit', invocations: 4 },
          { tool: 'Glob)]', invocations: 1 },
        ],
      }),
    ];
    const result = topTools(days, 1);
    expect(result.top).toEqual([{ name: 'Edit', count: 7, share: 7 / 15 }]);
    expect(result.unparseable).toBe(2);
    expect(result.unparseableNames).toEqual(['Glob)]', 'Read"}']);
  });
});

describe('MCP servers', () => {
  it('merges spellings that differ in case under the most frequent one', () => {
    const days = [
      toolsDay('2026-03-02', {
        mcp_by_server: [
          { server: 'GitHub', invocations: 3 },
          { server: 'linear', invocations: 2 },
        ],
      }),
      toolsDay('2026-03-03', {
        mcp_by_server: [
          { server: 'github', invocations: 5 },
          { server: 'GITHUB', invocations: 1 },
        ],
      }),
    ];
    const { total, servers } = mergeMcpServers(days);
    expect(total).toBe(11);
    expect(servers).toEqual([
      {
        name: 'github',
        count: 9,
        share: 9 / 11,
        spellings: [
          { name: 'github', count: 5 },
          { name: 'GitHub', count: 3 },
          { name: 'GITHUB', count: 1 },
        ],
      },
      { name: 'linear', count: 2, share: 2 / 11, spellings: [{ name: 'linear', count: 2 }] },
    ]);
  });
});

describe('hooks', () => {
  it('sums executions by event with their commands', () => {
    const days = [
      toolsDay('2026-03-02', {
        hooks_invocations: 6,
        hooks_by_event: [
          { event: 'PostToolUse', matcher: 'Edit', command: 'fmt', count: 4 },
          { event: 'Stop', matcher: '', command: 'test', count: 2 },
        ],
      }),
      toolsDay('2026-03-03', {
        hooks_invocations: 2,
        hooks_by_event: [{ event: 'PostToolUse', matcher: 'Edit', command: 'fmt', count: 2 }],
      }),
    ];
    const { total, hooks } = hooksByEvent(days);
    expect(total).toBe(8);
    expect(hooks.map((h) => [h.event, h.count, h.share])).toEqual([
      ['PostToolUse', 6, 0.75],
      ['Stop', 2, 0.25],
    ]);
    expect(hooks[0]!.commands).toEqual([{ matcher: 'Edit', command: 'fmt', count: 6 }]);
  });
});

describe('credits by model and tier', () => {
  const days = [
    tokensDay('2026-03-02', {
      billable_tokens: 100,
      by_model: [
        { model_id: 'big', model_tier: 'thinking', billable_tokens: 70, input_tokens: 7, output_tokens: 1 },
        { model_id: 'small', model_tier: 'standard', billable_tokens: 30, input_tokens: 3, output_tokens: 1 },
      ],
    }),
    tokensDay('2026-03-03', {
      billable_tokens: 100,
      by_model: [
        {
          model_id: 'small',
          model_tier: 'standard',
          billable_tokens: 100,
          input_tokens: 10,
          output_tokens: 2,
        },
      ],
    }),
  ];

  it('sums by model with share and cost', () => {
    const byModel = creditsByModel(days, 0.5);
    expect(byModel).toEqual([
      {
        model_id: 'small',
        model_tier: 'standard',
        credits: 130,
        input_tokens: 13,
        output_tokens: 3,
        share: 0.65,
        cost: 65,
      },
      {
        model_id: 'big',
        model_tier: 'thinking',
        credits: 70,
        input_tokens: 7,
        output_tokens: 1,
        share: 0.35,
        cost: 35,
      },
    ]);
    expect(creditsByTier(byModel, null)).toEqual([
      { tier: 'standard', credits: 130, share: 0.65, cost: null },
      { tier: 'thinking', credits: 70, share: 0.35, cost: null },
    ]);
  });

  it('gives the models and the tiers costs in whole cents that add up to the bill', () => {
    // Three models of 1 credit at 0.005 a credit: 0.015 is 2 cents (half up), shared out as 1, 1, 0
    // (each 0.5 cent; ties to the first); one by one, each would round to 1 cent and make 3.
    const three = [
      tokensDay('2026-03-02', {
        billable_tokens: 3,
        by_model: ['a', 'b', 'c'].map((m) => ({
          model_id: m,
          model_tier: m === 'c' ? 'thinking' : 'standard',
          billable_tokens: 1,
          input_tokens: 1,
          output_tokens: 1,
        })),
      }),
    ];
    const byModel = creditsByModel(three, 0.005);
    expect(byModel.map((m) => [m.model_id, m.cost])).toEqual([
      ['a', 0.01],
      ['b', 0.01],
      ['c', 0],
    ]);
    expect(creditsByTier(byModel, 0.005).map((t) => [t.tier, t.cost])).toEqual([
      ['standard', 0.02],
      ['thinking', 0],
    ]);
  });
});
