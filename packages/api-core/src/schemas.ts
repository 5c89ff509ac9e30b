/**
 * Zod schemas of every resource, request and response of the organization API
 * (the project's spec: docs/org-api.md). Types are inferred from them.
 *
 * Response schemas are loose: unknown properties pass through, because the API adds fields.
 * Enumerations the API may extend (client types, delegation levels, statuses) are open strings
 * whose known values are exported separately, so a new value never breaks parsing.
 */
import { z } from 'zod';
import { openEnum } from './open-enum.ts';

const count = z.number();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

// ---------------------------------------------------------------------------------------------
// Readiness reports ({app_url}/api/organization/maturity-level-reports)

export const REASONING_EFFORTS = ['low', 'medium', 'high', 'off'] as const;

export const criterionEvaluationSchema = z.looseObject({
  /** Sub-applications passing; absent when the criterion was skipped. */
  numerator: z.number().nullable().optional(),
  denominator: z.number().nullable().optional(),
  rationale: z.string().optional(),
});
export type CriterionEvaluation = z.infer<typeof criterionEvaluationSchema>;

export const readinessReportSchema = z.looseObject({
  reportId: z.string(),
  createdAt: z.number(),
  repoUrl: z.string(),
  apps: z.record(z.string(), z.looseObject({ description: z.string().optional() })).default({}),
  report: z.record(z.string(), criterionEvaluationSchema).default({}),
  commitHash: z.string().optional(),
  branch: z.string().optional(),
  hasLocalChanges: z.boolean().optional(),
  hasNonRemoteCommits: z.boolean().optional(),
  modelUsed: z.looseObject({ id: z.string(), reasoningEffort: openEnum(REASONING_EFFORTS) }).optional(),
  agentVersion: z.string().optional(),
});
export type ReadinessReport = z.infer<typeof readinessReportSchema>;

export const readinessListResponseSchema = z.looseObject({ reports: z.array(readinessReportSchema) });
export type ReadinessListResponse = z.infer<typeof readinessListResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Analytics ({base_url}/api/v1/analytics/...)

export const analyticsMetaSchema = z.looseObject({
  org_id: z.string(),
  start_date: isoDate,
  end_date: isoDate,
  has_more: z.boolean().optional(),
  next_cursor: z.string().nullable().optional(),
  // The service's published pages spell the `/users` paging fields in camelCase.
  hasMore: z.boolean().optional(),
  nextCursor: z.string().nullable().optional(),
});
export type AnalyticsMeta = z.infer<typeof analyticsMetaSchema>;

export const MODEL_TIERS = ['standard', 'thinking'] as const;

export const modelCreditsSchema = z.looseObject({
  model_id: z.string(),
  model_tier: openEnum(MODEL_TIERS),
  billable_tokens: count,
  input_tokens: count,
  output_tokens: count,
});
export type ModelCredits = z.infer<typeof modelCreditsSchema>;

export const tokensDaySchema = z.looseObject({
  date: isoDate,
  billable_tokens: count,
  input_tokens: count,
  output_tokens: count,
  cache_read_tokens: count,
  cache_write_tokens: count,
  by_model: z.array(modelCreditsSchema).default([]),
  by_user: z
    .array(
      z.looseObject({
        user_id: z.string(),
        user_email: z.string().nullable().optional(),
        billable_tokens: count,
        by_model: z.array(modelCreditsSchema).default([]),
      }),
    )
    .optional(),
});
export type TokensDay = z.infer<typeof tokensDaySchema>;

export const tokensByModelRowSchema = z.looseObject({
  date: isoDate,
  group_key: z.string(),
  billable_tokens: count,
  input_tokens: count,
  output_tokens: count,
});
export type TokensByModelRow = z.infer<typeof tokensByModelRowSchema>;

export const AUTONOMY_LEVELS = ['auto_high', 'auto_medium', 'auto_low', 'manual'] as const;
export type AutonomyLevel = (typeof AUTONOMY_LEVELS)[number];

export const toolsDaySchema = z.looseObject({
  date: isoDate,
  tool_calls: count,
  by_tool: z.array(z.looseObject({ tool: z.string(), invocations: count })).default([]),
  mcp_users_with_mcp: count.optional(),
  mcp_by_server: z.array(z.looseObject({ server: z.string(), invocations: count })).default([]),
  skills_invocations: count.default(0),
  skills_by_name: z.array(z.looseObject({ name: z.string(), count })).default([]),
  slash_commands_invocations: count.default(0),
  slash_commands_by_name: z.array(z.looseObject({ name: z.string(), count })).default([]),
  hooks_invocations: count.default(0),
  hooks_by_event: z
    .array(
      z.looseObject({
        event: z.string(),
        matcher: z.string().optional(),
        command: z.string().optional(),
        count,
      }),
    )
    .default([]),
  web_users: count.optional(),
  autonomy_ratio_avg: count.optional(),
  autonomy_ratio_p50: count.optional(),
  autonomy_ratio_p90: count.optional(),
  tool_calls_per_session_avg: count.optional(),
  user_turns_per_session_avg: count.optional(),
  /** Shares keyed auto_high, auto_medium, auto_low, manual (other keys may appear). */
  tool_autonomy_level_ratio: z.record(z.string(), count).default({}),
});
export type ToolsDay = z.infer<typeof toolsDaySchema>;

export const toolsByNameRowSchema = z.looseObject({
  date: isoDate,
  group_key: z.string(),
  tool_calls: count,
});
export type ToolsByNameRow = z.infer<typeof toolsByNameRowSchema>;

export const CLIENT_TYPES = ['terminal-ui', 'web', 'non-interactive-cli'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const activityDaySchema = z.looseObject({
  date: isoDate,
  daily_active_users: count,
  weekly_active_users: count,
  monthly_active_users: count,
  /** Keyed by client type; a client type the spec does not list may appear. */
  daily_active_users_by_client: z.record(z.string(), count).default({}),
  sessions: count,
  messages: count,
  user_messages: count,
});
export type ActivityDay = z.infer<typeof activityDaySchema>;

export const activityByClientRowSchema = z.looseObject({
  date: isoDate,
  group_key: openEnum(CLIENT_TYPES),
  daily_active_users: count,
});
export type ActivityByClientRow = z.infer<typeof activityByClientRowSchema>;

export const productivityDaySchema = z.looseObject({
  date: isoDate,
  files_created: count,
  files_edited: count,
  by_extension: z.array(z.looseObject({ extension: z.string(), count })).default([]),
  by_language: z.array(z.looseObject({ language: z.string(), count })).default([]),
  git_commits: count,
  git_prs_created: count,
});
export type ProductivityDay = z.infer<typeof productivityDaySchema>;

export const DELEGATION_LEVELS = ['auto-high', 'auto-medium', 'auto-low', 'spec', 'manual'] as const;
export type DelegationLevel = (typeof DELEGATION_LEVELS)[number];

export const userDaySchema = z.looseObject({
  user_id: z.string(),
  user_email: z.string().nullable(),
  date: isoDate,
  tool_calls: count,
  billable_tokens: count,
  primary_model: z.string().nullable().optional(),
  primary_model_tier: openEnum(MODEL_TIERS).nullable().optional(),
  files_created: count.default(0),
  files_edited: count.default(0),
  git_commits: count.default(0),
  git_prs_created: count.default(0),
  mcp_calls: count.default(0),
  skill_calls: count.default(0),
  slash_commands: count.default(0),
  hooks: count.default(0),
  sessions: count.default(0),
  messages: count.default(0),
  user_messages: count.default(0),
  assistant_messages: count.default(0),
  autonomy_ratio: count.nullable().optional(),
  delegation_level: openEnum(DELEGATION_LEVELS).nullable().optional(),
  languages: z.array(z.string()).default([]),
});
export type UserDay = z.infer<typeof userDaySchema>;

/** The envelope of every analytics response, for a given row schema. */
export function analyticsResponseSchema<Row extends z.ZodType>(row: Row) {
  return z.looseObject({ data: z.array(row), meta: analyticsMetaSchema });
}
export interface AnalyticsResponse<Row> {
  data: Row[];
  meta: AnalyticsMeta;
}

/** The error body of analytics endpoints (other endpoints' error bodies are not specified). */
export const apiErrorBodySchema = z.looseObject({
  title: z.string().optional(),
  detail: z.string().optional(),
  status: z.number().optional(),
  requestId: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

// ---------------------------------------------------------------------------------------------
// Enterprise controls (GET /api/v0/organization/enterprise-controls/history)

const stringList = z.array(z.string());

export const customModelSchema = z.looseObject({
  model: z.string().optional(),
  id: z.string().optional(),
  index: z.number().optional(),
  baseUrl: z.string().optional(),
  /** A secret: redacted before anything is written or shown. */
  apiKey: z.string().optional(),
  displayName: z.string().optional(),
  maxContextLimit: z.number().optional(),
  enableThinking: z.boolean().optional(),
  thinkingMaxTokens: z.number().optional(),
  maxOutputTokens: z.number().optional(),
  extraHeaders: z.record(z.string(), z.unknown()).optional(),
  extraArgs: z.record(z.string(), z.unknown()).optional(),
  noImageSupport: z.boolean().optional(),
  cloudHosted: z
    .looseObject({
      cloudProfile: z.string().optional(),
      cloudRegion: z.string().optional(),
      cloudBaseUrl: z.string().optional(),
      cloudAuthRefresh: z.string().optional(),
      cloudCredentialExport: z.string().optional(),
    })
    .optional(),
});
export type CustomModel = z.infer<typeof customModelSchema>;

/**
 * Organization settings at one revision: a generic JSON object whose documented properties are
 * typed as optional (properties may be added, removed or renamed between API versions).
 */
export const enterpriseSettingsSchema = z.looseObject({
  sessionDefaultSettings: z
    .looseObject({
      model: z.string().optional(),
      specModeModel: z.string().optional(),
      runInWorktree: z.boolean().optional(),
    })
    .optional(),
  mcpAutonomyOverrides: z.record(z.string(), z.unknown()).optional(),
  cloudSessionSync: z.boolean().optional(),
  wikiCloudSync: z.boolean().optional(),
  includeCoAuthoredByAgent: z.boolean().optional(),
  enableAgentShield: z.boolean().optional(),
  ideAutoConnect: z.boolean().optional(),
  commandAllowlist: stringList.optional(),
  commandDenylist: stringList.optional(),
  customModels: z.array(customModelSchema).optional(),
  modelPolicy: z
    .looseObject({
      allowedModelIds: stringList.optional(),
      blockedModelIds: stringList.optional(),
      allowCustomModels: z.boolean().optional(),
      allowedBaseUrls: stringList.optional(),
      allowAllServiceModels: z.boolean().optional(),
      isFastModelsAllowed: z.boolean().optional(),
    })
    .optional(),
  mcpPolicy: z.looseObject({ enabled: z.boolean().optional(), allowlist: stringList.optional() }).optional(),
  missionPolicy: z
    .looseObject({ restrictedAccess: z.boolean().optional(), allowedUserIds: stringList.optional() })
    .optional(),
  userModelPolicies: z.record(z.string(), z.unknown()).optional(),
  enabledPlugins: z.record(z.string(), z.unknown()).optional(),
  extraKnownMarketplaces: z.record(z.string(), z.unknown()).optional(),
  strictKnownMarketplaces: z.array(z.looseObject({ repo: z.string() })).optional(),
  networkPolicy: z.looseObject({ allowedIps: stringList.optional() }).optional(),
  sandbox: z
    .looseObject({
      enabled: z.boolean().optional(),
      filesystem: z
        .looseObject({
          allowWrite: stringList.optional(),
          allowRead: stringList.optional(),
          denyWrite: stringList.optional(),
          denyRead: stringList.optional(),
        })
        .optional(),
      network: z
        .looseObject({
          allowedDomains: stringList.optional(),
          allowUnixSockets: stringList.optional(),
          allowAllUnixSockets: z.boolean().optional(),
          allowLocalBinding: z.boolean().optional(),
          httpProxyPort: z.number().optional(),
          socksProxyPort: z.number().optional(),
        })
        .optional(),
    })
    .optional(),
  restrictMemberVisibility: z.boolean().optional(),
  restrictApiKeyCreationToManagers: z.boolean().optional(),
  managedComputersEnabled: z.boolean().optional(),
  managedComputersAllowedEmails: stringList.optional(),
  byomComputersEnabled: z.boolean().optional(),
  byomComputersAllowedEmails: stringList.optional(),
  sessionRetentionDays: z.number().int().optional(),
  serviceRouterGuidance: z.string().optional(),
});
export type EnterpriseSettings = z.infer<typeof enterpriseSettingsSchema>;

export const controlChangeSchema = z.looseObject({
  revision: z.number().int(),
  settings: enterpriseSettingsSchema,
  user: z.looseObject({
    id: z.string().optional(),
    email: z.string().optional(),
    name: z.string().optional(),
  }),
  updatedAt: z.string(),
});
export type ControlChange = z.infer<typeof controlChangeSchema>;

// Either spelling of the paging fields is read (page-styles.ts); a page without any is judged there.
export const v0PaginationSchema = z.looseObject({
  hasMore: z.boolean().optional(),
  nextCursor: z.string().nullable().optional(),
  has_more: z.boolean().optional(),
  next_cursor: z.string().nullable().optional(),
});
export type V0Pagination = z.infer<typeof v0PaginationSchema>;

export const controlHistoryResponseSchema = z.looseObject({
  changes: z.array(controlChangeSchema),
  pagination: v0PaginationSchema.optional(),
});
export type ControlHistoryResponse = z.infer<typeof controlHistoryResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Sessions and messages (/api/v0/sessions)

export const SESSION_STATUSES = ['idle', 'pending', 'running'] as const;

export const tokenUsageSchema = z.looseObject({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  cacheCreationTokens: z.number().optional(),
  cacheReadTokens: z.number().optional(),
  thinkingTokens: z.number().optional(),
  serviceCredits: z.number().optional(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

const sessionSettingsShape = {
  model: z.string().optional(),
  specModeModel: z.string().optional(),
  runInWorktree: z.boolean().optional(),
  providerLockTimestamp: z.string().optional(),
  assistantActiveTimeMs: z.number().optional(),
  childInclusiveTokenUsageBySessionId: z.record(z.string(), z.unknown()).optional(),
  archivedAt: z.string().optional(),
  tags: z
    .array(z.looseObject({ name: z.string(), metadata: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
  enabledToolIds: stringList.optional(),
  disabledToolIds: stringList.optional(),
  compactionThresholdCheckEnabled: z.boolean().optional(),
};

/** Session settings as sent in a request: every field except the response-only token usages. */
export const sessionSettingsRequestSchema = z.strictObject(sessionSettingsShape);
export type SessionSettingsRequest = z.infer<typeof sessionSettingsRequestSchema>;

export const sessionSettingsSchema = z.looseObject({
  ...sessionSettingsShape,
  tokenUsage: tokenUsageSchema.optional(),
  inclusiveTokenUsage: tokenUsageSchema.optional(),
});
export type SessionSettings = z.infer<typeof sessionSettingsSchema>;

export const sessionSchema = z.looseObject({
  sessionId: z.string(),
  status: openEnum(SESSION_STATUSES),
  messageCount: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  title: z.string().optional(),
  completedAt: z.number().int().optional(),
  computerId: z.string().optional(),
  sessionSettings: sessionSettingsSchema.optional(),
});
export type Session = z.infer<typeof sessionSchema>;

export const createSessionRequestSchema = z.object({
  computerId: z.string().min(1),
  cwd: z.string().min(1).max(4096).optional(),
  sessionSettings: sessionSettingsRequestSchema.optional(),
});
export type CreateSessionRequest = z.infer<typeof createSessionRequestSchema>;

export const updateSessionRequestSchema = z.object({
  sessionSettings: sessionSettingsRequestSchema.optional(),
});
export type UpdateSessionRequest = z.infer<typeof updateSessionRequestSchema>;

export const MESSAGE_ROLES = ['user', 'assistant', 'tool', 'system'] as const;
export const USER_MESSAGE_SOURCES = [
  'web',
  'desktop',
  'cli_tui',
  'cli_exec',
  'cli_acp',
  'chat_app',
  'issue_tracker',
  'sessions_api',
  'api',
  'automation',
  'readiness-remediation',
  'readiness-evaluation',
  'wiki-generation',
  'wiki-ci-setup',
] as const;

export const messageSchema = z.looseObject({
  id: z.string(),
  role: openEnum(MESSAGE_ROLES),
  content: z.array(z.looseObject({ text: z.string().optional(), id: z.string().optional() })),
  createdAt: z.number(),
  updatedAt: z.number(),
  parentId: z.string().optional(),
  userMessageSource: openEnum(USER_MESSAGE_SOURCES).optional(),
  visibility: openEnum(['both', 'llm_only', 'user_only'] as const).optional(),
  vendorAMessageId: z.string().optional(),
  vendorAPhase: openEnum(['commentary', 'final_answer'] as const)
    .nullable()
    .optional(),
  vendorAEncryptedContent: z.string().optional(),
  vendorAReasoningId: z.string().optional(),
  vendorAReasoningSummary: z.string().optional(),
  /** @deprecated in favor of signature fields on thinking blocks. */
  vendorBThoughtSignature: z.string().optional(),
  chatCompletionReasoningField: openEnum(['reasoning', 'reasoning_content'] as const).optional(),
  chatCompletionReasoningContent: z.string().optional(),
  isUserVisible: z.boolean().optional(),
  isError: z.boolean().optional(),
});
export type Message = z.infer<typeof messageSchema>;

// ---------------------------------------------------------------------------------------------
// Computers (GET /api/v0/computers); which fields are required is not specified: only ids are.

export const provisioningStepSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  status: z.string().optional(),
  error: z.string().nullable().optional(),
  startedAt: z.number().nullable().optional(),
  completedAt: z.number().nullable().optional(),
  installSessionId: z.string().nullable().optional(),
});
export type ProvisioningStep = z.infer<typeof provisioningStepSchema>;

export const computerSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  createdAt: z.number().optional(),
  hostId: z.string().optional(),
  hostname: z.string().optional(),
  provisioningSteps: z.array(provisioningStepSchema).optional(),
  relayClientUrl: z.string().optional(),
  relayAgentUrl: z.string().optional(),
  remoteUser: z.string().optional(),
  ownerPrincipalKind: z.string().optional(),
  ownerId: z.string().optional(),
});
export type Computer = z.infer<typeof computerSchema>;

export const computersResponseSchema = z.looseObject({ computers: z.array(computerSchema) });

// ---------------------------------------------------------------------------------------------
// Organization users (GET /api/v0/organization/users); required fields not specified: only id is.

export const orgUserSchema = z.looseObject({
  id: z.string(),
  email: z.string().optional(),
  createdAt: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  lastSignInAt: z.string().nullable().optional(),
});
export type OrgUser = z.infer<typeof orgUserSchema>;

export const orgUsersResponseSchema = z.looseObject({
  users: z.array(orgUserSchema),
  pagination: v0PaginationSchema.optional(),
});

// ---------------------------------------------------------------------------------------------
// Credit limits (PUT /api/v0/organization/usage/limits/users)

export const creditLimitEntrySchema = z.object({ email: z.email(), limit: z.number().finite() });
export type CreditLimitEntry = z.infer<typeof creditLimitEntrySchema>;

export const setCreditLimitsRequestSchema = z.object({
  users: z.array(creditLimitEntrySchema).min(1).max(100),
});

export const setCreditLimitsResponseSchema = z.looseObject({
  updated: z.array(z.looseObject({ email: z.string(), limit: z.number() })),
  errors: z.array(z.looseObject({ email: z.string(), error: z.string() })),
});
export type SetCreditLimitsResponse = z.infer<typeof setCreditLimitsResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Hook events (client-side; JSON on a hook command's standard input)

// In a module of their own, so that recording a hook event loads these few schemas only.
export type { HookEvent, HookEventKind, HooksConfig } from './hook-schemas.ts';
export { HOOK_EVENT_KINDS, hookCommandSchema, hookEventSchema, hooksConfigSchema } from './hook-schemas.ts';
