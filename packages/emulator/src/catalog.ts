/**
 * The vocabulary of the synthetic organization: models, tools, MCP servers, skills, slash commands,
 * hook configurations, languages, personas and readiness criteria. Plain data, no randomness.
 */
import type { AutonomyLevel, ClientType, DelegationLevel } from '@orgreport/api-core';

/** A model the service offers, with its tier and credit multiplier. */
export interface ModelInfo {
  id: string;
  tier: 'standard' | 'thinking';
  /** Credits per token relative to the cheapest models. */
  creditFactor: number;
}

export const MODELS: readonly ModelInfo[] = [
  { id: 'vendorA-swift-4.5', tier: 'standard', creditFactor: 1 },
  { id: 'vendorA-grand-4.5', tier: 'thinking', creditFactor: 3 },
  { id: 'vendorB-codex-5', tier: 'thinking', creditFactor: 2 },
  { id: 'vendorB-mini-5', tier: 'standard', creditFactor: 1 },
  { id: 'vendorC-flash-3', tier: 'standard', creditFactor: 1 },
  { id: 'vendorC-pro-3', tier: 'thinking', creditFactor: 2 },
];

/** The built-in tools of the agent. */
export const TOOLS = [
  'Read',
  'Edit',
  'Create',
  'Execute',
  'Grep',
  'Glob',
  'LS',
  'ApplyPatch',
  'TodoWrite',
  'WebSearch',
  'FetchUrl',
  'Task',
] as const;
/** Relative frequency of each built-in tool. */
export const TOOL_WEIGHTS = [30, 18, 6, 16, 12, 6, 4, 3, 3, 1, 1, 2];

/**
 * Tool names as they sometimes arrive from the client's tool-call parser: truncated JSON, stray
 * tokens. Metrics count them as "(unparseable)".
 */
export const ARTIFACT_TOOL_NAMES = [
  'Read"}',
  '{"name": "Edit',
  'Execute<|end|>',
  'Grep\\n',
  'Glob)]',
  'functions.Read',
];

/** MCP servers; each canonical name has spellings that differ in letter case only. */
export const MCP_SERVERS: readonly { spellings: readonly string[]; tools: readonly string[] }[] = [
  { spellings: ['github', 'GitHub'], tools: ['create_issue', 'get_pull_request', 'search_code'] },
  { spellings: ['linear', 'Linear'], tools: ['list_issues', 'update_issue'] },
  { spellings: ['sentry'], tools: ['get_issue_details'] },
  { spellings: ['playwright', 'Playwright'], tools: ['browser_navigate', 'browser_click'] },
  { spellings: ['postgres'], tools: ['query'] },
  { spellings: ['notion', 'Notion', 'NOTION'], tools: ['search', 'fetch_page'] },
  { spellings: ['figma'], tools: ['get_design_context'] },
];

export const SKILLS = [
  'frontend-design',
  'test-driven-development',
  'code-review',
  'pdf',
  'xlsx',
  'brainstorming',
  'systematic-debugging',
];

export const SLASH_COMMANDS = [
  '/review',
  '/compact',
  '/init',
  '/model',
  '/clear',
  '/security-review',
  '/mcp',
  '/settings',
];

/** Hook configurations users set up: event kind, matcher, command, and how often they fire. */
export interface HookSetup {
  event: string;
  matcher: string;
  command: string;
  /** Firings per tool call (tool events) or per session (session events). */
  perToolCall?: number;
  perSession?: number;
}

export const HOOK_SETUPS: readonly HookSetup[] = [
  {
    event: 'PostToolUse',
    matcher: 'Edit|Create',
    command: 'npx prettier --write "$FILE"',
    perToolCall: 0.25,
  },
  { event: 'PostToolUse', matcher: 'Edit', command: 'ruff check --fix', perToolCall: 0.15 },
  { event: 'PreToolUse', matcher: 'Execute', command: './scripts/guard-command.sh', perToolCall: 0.2 },
  { event: 'Notification', matcher: '', command: 'notify-send "agent needs you"', perSession: 1.5 },
  { event: 'Stop', matcher: '', command: './scripts/run-tests.sh', perSession: 1 },
  { event: 'SubagentStop', matcher: '', command: 'echo done >> ~/.agent/log', perSession: 0.5 },
  { event: 'SessionEnd', matcher: '', command: './scripts/archive-transcript.sh', perSession: 1 },
  { event: 'UserPromptSubmit', matcher: '', command: './scripts/add-context.sh', perSession: 3 },
];

/** Languages with the file extensions they are written in. */
export const LANGUAGES: readonly { language: string; extensions: readonly string[]; weight: number }[] = [
  { language: 'TypeScript', extensions: ['.ts', '.tsx'], weight: 30 },
  { language: 'JavaScript', extensions: ['.js', '.mjs'], weight: 10 },
  { language: 'Python', extensions: ['.py'], weight: 22 },
  { language: 'Go', extensions: ['.go'], weight: 8 },
  { language: 'Rust', extensions: ['.rs'], weight: 5 },
  { language: 'Java', extensions: ['.java'], weight: 6 },
  { language: 'Markdown', extensions: ['.md'], weight: 8 },
  { language: 'YAML', extensions: ['.yaml', '.yml'], weight: 5 },
  { language: 'SQL', extensions: ['.sql'], weight: 3 },
  { language: 'Shell', extensions: ['.sh'], weight: 3 },
];

/** A working style: how a user delegates, how autonomous the agent runs, which clients they use. */
export interface Persona {
  name: string;
  weight: number;
  /** Shares of tool calls at each autonomy level. */
  autonomyMix: Readonly<Record<AutonomyLevel, number>>;
  /** Median tool calls per user message. */
  autonomyRatio: number;
  /** Chance that a day's primary mode is specification mode. */
  specChance: number;
  /** Chance of using each client on an active day. */
  clients: Readonly<Record<ClientType, number>>;
  /** Chance of picking a thinking-tier model as the main model. */
  thinkingPreference: number;
}

export const PERSONAS: readonly Persona[] = [
  {
    name: 'explorer',
    weight: 25,
    autonomyMix: { auto_high: 0.05, auto_medium: 0.2, auto_low: 0.45, manual: 0.3 },
    autonomyRatio: 2,
    specChance: 0.05,
    clients: { 'terminal-ui': 0.7, web: 0.5, 'non-interactive-cli': 0.02 },
    thinkingPreference: 0.2,
  },
  {
    name: 'pair-programmer',
    weight: 35,
    autonomyMix: { auto_high: 0.15, auto_medium: 0.55, auto_low: 0.2, manual: 0.1 },
    autonomyRatio: 4,
    specChance: 0.1,
    clients: { 'terminal-ui': 0.9, web: 0.25, 'non-interactive-cli': 0.1 },
    thinkingPreference: 0.4,
  },
  {
    name: 'planner',
    weight: 15,
    autonomyMix: { auto_high: 0.2, auto_medium: 0.5, auto_low: 0.2, manual: 0.1 },
    autonomyRatio: 6,
    specChance: 0.6,
    clients: { 'terminal-ui': 0.85, web: 0.35, 'non-interactive-cli': 0.05 },
    thinkingPreference: 0.7,
  },
  {
    name: 'delegator',
    weight: 18,
    autonomyMix: { auto_high: 0.65, auto_medium: 0.25, auto_low: 0.07, manual: 0.03 },
    autonomyRatio: 9,
    specChance: 0.15,
    clients: { 'terminal-ui': 0.75, web: 0.4, 'non-interactive-cli': 0.35 },
    thinkingPreference: 0.55,
  },
  {
    name: 'automation',
    weight: 7,
    autonomyMix: { auto_high: 0.9, auto_medium: 0.08, auto_low: 0.02, manual: 0 },
    autonomyRatio: 15,
    specChance: 0,
    clients: { 'terminal-ui': 0.1, web: 0.05, 'non-interactive-cli': 0.95 },
    thinkingPreference: 0.3,
  },
];

/** The delegation level whose tool-call share is largest in a persona's mix (spec excluded). */
export const AUTONOMY_TO_DELEGATION: Readonly<Record<AutonomyLevel, DelegationLevel>> = {
  auto_high: 'auto-high',
  auto_medium: 'auto-medium',
  auto_low: 'auto-low',
  manual: 'manual',
};

/** Readiness criteria; app-scoped ones are evaluated once per application of the repository. */
export const CRITERIA: readonly { id: string; appScoped: boolean; difficulty: number; topic: string }[] = [
  { id: 'readme', appScoped: false, difficulty: 0.1, topic: 'a README explaining setup and usage' },
  { id: 'contributing_guide', appScoped: false, difficulty: 0.5, topic: 'a contributing guide' },
  { id: 'agents_md', appScoped: false, difficulty: 0.6, topic: 'an AGENTS.md with agent instructions' },
  { id: 'lint_config', appScoped: true, difficulty: 0.2, topic: 'a linter configuration' },
  { id: 'formatter', appScoped: true, difficulty: 0.25, topic: 'an automatic formatter' },
  { id: 'type_checking', appScoped: true, difficulty: 0.4, topic: 'static type checking' },
  { id: 'unit_tests', appScoped: true, difficulty: 0.3, topic: 'unit tests that run locally' },
  { id: 'integration_tests', appScoped: true, difficulty: 0.65, topic: 'integration tests' },
  { id: 'test_coverage', appScoped: true, difficulty: 0.7, topic: 'a measured test coverage threshold' },
  { id: 'ci_pipeline', appScoped: false, difficulty: 0.2, topic: 'a CI pipeline on every pull request' },
  { id: 'pre_commit_hooks', appScoped: false, difficulty: 0.55, topic: 'pre-commit hooks' },
  { id: 'dependency_lockfile', appScoped: false, difficulty: 0.1, topic: 'a committed dependency lockfile' },
  { id: 'build_script', appScoped: true, difficulty: 0.15, topic: 'a one-command build' },
  { id: 'dev_environment', appScoped: false, difficulty: 0.5, topic: 'a reproducible dev environment' },
  { id: 'env_example', appScoped: false, difficulty: 0.35, topic: 'an example environment file' },
  { id: 'code_owners', appScoped: false, difficulty: 0.45, topic: 'a CODEOWNERS file' },
  { id: 'pr_template', appScoped: false, difficulty: 0.4, topic: 'a pull-request template' },
  { id: 'secrets_scanning', appScoped: false, difficulty: 0.6, topic: 'secret scanning' },
  { id: 'structured_logging', appScoped: true, difficulty: 0.75, topic: 'structured logging' },
  { id: 'api_docs', appScoped: true, difficulty: 0.7, topic: 'generated API documentation' },
  { id: 'dead_code_detection', appScoped: false, difficulty: 0.85, topic: 'dead-code detection' },
];

/**
 * Repository names, their applications (path -> description) and the team of the people directory
 * that owns each (see directory.ts).
 */
export const REPOSITORIES: readonly {
  name: string;
  team: string;
  apps: Readonly<Record<string, string>>;
}[] = [
  {
    name: 'web-portal',
    team: 'Web',
    apps: { 'apps/web': 'Customer-facing web portal', 'packages/ui': 'Shared UI kit' },
  },
  { name: 'billing-service', team: 'Payments', apps: { '.': 'Invoicing and payment processing service' } },
  {
    name: 'data-platform',
    team: 'Data',
    apps: {
      'pipelines/ingest': 'Batch ingestion jobs',
      'pipelines/transform': 'Warehouse transformations',
      'services/query-api': 'Internal query API',
    },
  },
  {
    name: 'mobile-app',
    team: 'Mobile',
    apps: { app: 'iOS and Android client', backend: 'Mobile backend-for-frontend' },
  },
  { name: 'infra', team: 'Platform', apps: { terraform: 'Cloud infrastructure as code' } },
  { name: 'auth-gateway', team: 'Security', apps: { '.': 'Authentication and API gateway' } },
  { name: 'search-indexer', team: 'Data', apps: { indexer: 'Search index builder', api: 'Search API' } },
  {
    name: 'design-system',
    team: 'Web',
    apps: { 'packages/tokens': 'Design tokens', 'packages/components': 'Components' },
  },
];

/** Agent client versions in use over the year. */
export const AGENT_VERSIONS = ['0.18.2', '0.19.0', '0.20.1', '0.21.3', '0.22.0', '0.23.4'];
