/** Small valid resources, written by hand from the spec (docs/org-api.md). */

export function readinessReport(id: string) {
  return {
    reportId: id,
    createdAt: 1_790_000_000_000,
    repoUrl: `https://git.example.com/acme/${id}`,
    apps: { '.': { description: 'the service' } },
    report: { tests: { numerator: 1, denominator: 2, rationale: 'half the apps have tests' } },
  };
}

export function userDay(userId: string, date = '2026-10-01') {
  return {
    user_id: userId,
    user_email: `${userId}@example.com`,
    date,
    tool_calls: 10,
    billable_tokens: 1000,
    primary_model: 'model-a',
    primary_model_tier: 'standard',
    delegation_level: 'auto-medium',
    languages: ['TypeScript'],
  };
}

export function tokensDay(date: string) {
  return {
    date,
    billable_tokens: 300,
    input_tokens: 200,
    output_tokens: 100,
    cache_read_tokens: 50,
    cache_write_tokens: 5,
    by_model: [
      {
        model_id: 'model-a',
        model_tier: 'standard',
        billable_tokens: 300,
        input_tokens: 200,
        output_tokens: 100,
      },
    ],
  };
}

export function toolsDay(date: string) {
  return { date, tool_calls: 7, by_tool: [{ tool: 'Read', invocations: 7 }] };
}

export function activityDay(date: string) {
  return {
    date,
    daily_active_users: 3,
    weekly_active_users: 5,
    monthly_active_users: 9,
    daily_active_users_by_client: { 'terminal-ui': 2, web: 1 },
    sessions: 4,
    messages: 40,
    user_messages: 12,
  };
}

export function productivityDay(date: string) {
  return {
    date,
    files_created: 2,
    files_edited: 5,
    by_extension: [{ extension: '.ts', count: 7 }],
    by_language: [{ language: 'TypeScript', count: 7 }],
    git_commits: 1,
    git_prs_created: 0,
  };
}

export function controlChange(revision: number) {
  return {
    revision,
    settings: { cloudSessionSync: true, customModels: [{ id: 'm1', apiKey: 'test-custom-model-key' }] },
    user: { id: 'u1', email: 'owner@example.com', name: 'Owner' },
    updatedAt: '2026-10-02T10:00:00Z',
  };
}

export function orgUser(id: string) {
  return {
    id,
    email: `${id}@example.com`,
    createdAt: '2026-01-20T09:00:00Z',
    firstName: 'Ana',
    lastName: 'Lee',
  };
}

export function session(id: string) {
  return { sessionId: id, status: 'idle', messageCount: 0, createdAt: 1, updatedAt: 2, computerId: 'cmp_1' };
}

export function message(id: string) {
  return { id, role: 'user', content: [{ id: 'c1', text: 'hello' }], createdAt: 1, updatedAt: 1 };
}
