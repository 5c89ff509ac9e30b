/**
 * The enterprise-control history: an initial revision before the data window, then a few changes
 * a month, each touching one to three settings. Custom models carry obviously fake `apiKey` values
 * that a report must never show.
 */
import { type ControlChange, type EnterpriseSettings, MS_PER_DAY, toEpochDay } from '@orgreport/api-core';
import { MCP_SERVERS, MODELS } from './catalog.ts';
import { HOSTILE_STRINGS, hostileAt } from './hostile.ts';
import type { UserIdentity } from './people.ts';
import { applySettingChange, type Plant, plantedTime, type SecurityChangePlant } from './plants.ts';
import { Rng } from './prng.ts';

const TAG_CONTROLS = 12;
/** The first revision predates the data window, so the first in-window change has a predecessor. */
const HISTORY_START = '2025-12-01';

function initialSettings(hostile: boolean): EnterpriseSettings {
  return {
    sessionDefaultSettings: {
      model: MODELS[0]?.id ?? 'default',
      specModeModel: MODELS[1]?.id ?? 'default',
      runInWorktree: false,
    },
    mcpAutonomyOverrides: {},
    cloudSessionSync: true,
    wikiCloudSync: false,
    includeCoAuthoredByAgent: true,
    enableAgentShield: false,
    ideAutoConnect: true,
    commandAllowlist: hostile
      ? ['npm test', HOSTILE_STRINGS.cmdFormula, HOSTILE_STRINGS.script]
      : ['npm test', 'git status'],
    commandDenylist: ['rm -rf /', 'curl * | sh'],
    customModels: [],
    modelPolicy: {
      allowedModelIds: MODELS.map((m) => m.id),
      blockedModelIds: [],
      allowCustomModels: false,
      allowedBaseUrls: [],
      allowAllServiceModels: true,
      isFastModelsAllowed: true,
    },
    mcpPolicy: { enabled: true, allowlist: ['github', 'linear'] },
    missionPolicy: { restrictedAccess: false, allowedUserIds: [] },
    userModelPolicies: {},
    enabledPlugins: {},
    extraKnownMarketplaces: {},
    strictKnownMarketplaces: [],
    networkPolicy: { allowedIps: [] },
    sandbox: {
      enabled: false,
      filesystem: { allowWrite: ['./'], allowRead: ['./'], denyWrite: ['~/.ssh'], denyRead: ['~/.ssh'] },
      network: {
        allowedDomains: ['registry.npmjs.org'],
        allowUnixSockets: [],
        allowAllUnixSockets: false,
        allowLocalBinding: true,
        httpProxyPort: 8080,
        socksProxyPort: 1080,
      },
    },
    restrictMemberVisibility: false,
    restrictApiKeyCreationToManagers: false,
    managedComputersEnabled: true,
    managedComputersAllowedEmails: [],
    byomComputersEnabled: false,
    byomComputersAllowedEmails: [],
    sessionRetentionDays: 90,
    serviceRouterGuidance: hostile
      ? `${HOSTILE_STRINGS.handlebars} ${HOSTILE_STRINGS.imgOnError}`
      : 'Prefer standard-tier models for routine edits.',
  };
}

type Mutation = (s: EnterpriseSettings, r: Rng, n: number, hostile: boolean) => void;

const MUTATIONS: readonly Mutation[] = [
  (s) => {
    s.cloudSessionSync = !s.cloudSessionSync;
  },
  (s) => {
    s.enableAgentShield = !s.enableAgentShield;
  },
  (s, r) => {
    s.sessionDefaultSettings = { ...s.sessionDefaultSettings, model: r.pick(MODELS).id };
  },
  (s, r) => {
    s.sessionRetentionDays = r.pick([30, 60, 90, 180, 365]);
  },
  (s, r) => {
    const cmd = r.pick(['pnpm lint', 'cargo test', 'make build', 'pytest -q', 'go vet ./...']);
    const list = s.commandAllowlist ?? [];
    s.commandAllowlist = list.includes(cmd) ? list.filter((c) => c !== cmd) : [...list, cmd];
  },
  (s, r, n, hostile) => {
    // Add a custom model with a fake key (the kind of secret a report must redact).
    const models = s.customModels ?? [];
    s.customModels = [
      ...models,
      {
        model: r.pick(['llama-4-maverick', 'qwen3-coder', 'mistral-large-3']),
        id: `custom:${r.hex(6)}`,
        index: models.length,
        baseUrl: `https://llm-gateway.internal.example/v${1 + (n % 2)}`,
        apiKey: `fake-key-${r.hex(24)}`,
        displayName: hostile ? hostileAt(n) : `Gateway model ${models.length + 1}`,
        maxContextLimit: r.pick([128000, 200000, 1000000]),
        enableThinking: r.chance(0.5),
        thinkingMaxTokens: 8192,
        maxOutputTokens: 16384,
        extraHeaders: { 'x-team': hostile ? hostileAt(n + 5) : 'platform' },
        extraArgs: {},
        noImageSupport: r.chance(0.3),
        cloudHosted: {
          cloudProfile: 'default',
          cloudRegion: r.pick(['us-east-1', 'eu-west-1']),
          cloudBaseUrl: 'https://cloud.example.com',
          cloudAuthRefresh: 'fake-refresh-command',
          cloudCredentialExport: 'fake-credential-export',
        },
      },
    ];
    s.modelPolicy = { ...s.modelPolicy, allowCustomModels: true };
  },
  (s, r) => {
    // Rotate a custom model's key (or toggle fast models when there is none).
    const models = s.customModels ?? [];
    if (models.length === 0) {
      s.modelPolicy = { ...s.modelPolicy, isFastModelsAllowed: !s.modelPolicy?.isFastModelsAllowed };
      return;
    }
    const i = r.int(models.length);
    s.customModels = models.map((m, k) => (k === i ? { ...m, apiKey: `fake-key-${r.hex(24)}` } : m));
  },
  (s, r) => {
    const server = (r.pick(MCP_SERVERS).spellings[0] ?? 'github') as string;
    const list = s.mcpPolicy?.allowlist ?? [];
    s.mcpPolicy = {
      ...s.mcpPolicy,
      allowlist: list.includes(server) ? list.filter((x) => x !== server) : [...list, server],
    };
  },
  (s, r) => {
    const blocked = s.modelPolicy?.blockedModelIds ?? [];
    const id = r.pick(MODELS).id;
    s.modelPolicy = {
      ...s.modelPolicy,
      blockedModelIds: blocked.includes(id) ? blocked.filter((x) => x !== id) : [...blocked, id],
    };
  },
  (s) => {
    s.restrictApiKeyCreationToManagers = !s.restrictApiKeyCreationToManagers;
  },
  (s) => {
    s.sandbox = { ...s.sandbox, enabled: !s.sandbox?.enabled };
  },
];

/**
 * The full history, revision descending (as the endpoint serves it). Planted security changes are
 * revisions of their own on their day (after a natural revision of the same day), and the natural
 * revisions after them build on their settings; the natural revisions keep their days, admins and
 * mutations.
 */
export function buildControlHistory(
  seed: number,
  today: string,
  admins: readonly UserIdentity[],
  hostile: boolean,
  plants: readonly Plant[] = [],
): ControlChange[] {
  const r = Rng.of(seed, TAG_CONTROLS);
  const lastDay = toEpochDay(today) - 1;
  const changes: ControlChange[] = [];
  let settings = initialSettings(hostile);
  let revision = 1;
  // The natural revisions' own count: what their mutations draw names from, plants or not.
  let natural = 1;
  const planted = plants
    .filter((p): p is SecurityChangePlant => p.kind === 'security-change')
    .map((p, order) => ({ p, order }))
    .sort((a, b) => (a.p.day < b.p.day ? -1 : a.p.day > b.p.day ? 1 : a.order - b.order))
    .map((x) => x.p);
  /** Adds the planted changes of the days before `day` (epoch day), after the revisions so far. */
  const plantBefore = (day: number) => {
    while (planted.length > 0 && toEpochDay(planted[0]!.day) < day) {
      const plant = planted.shift()!;
      settings = applySettingChange(settings, plant);
      const admin = admins[plant.by ?? 0] ?? admins[0]!;
      changes.push({
        revision: revision++,
        settings,
        user: { id: admin.id, email: admin.email, name: `${admin.firstName} ${admin.lastName}` },
        updatedAt: plantedTime(plant.day, changes.at(-1)?.updatedAt),
      });
    }
  };
  for (let day = toEpochDay(HISTORY_START); day <= lastDay; day += r.range(3, 14)) {
    plantBefore(day);
    if (natural > 1) {
      settings = structuredClone(settings);
      const touched = r.range(1, 3);
      for (let k = 0; k < touched; k++) (r.pick(MUTATIONS) as Mutation)(settings, r, natural, hostile);
    }
    const admin = r.pick(admins);
    changes.push({
      revision,
      settings,
      user: { id: admin.id, email: admin.email, name: `${admin.firstName} ${admin.lastName}` },
      updatedAt: new Date(day * MS_PER_DAY + r.int(MS_PER_DAY)).toISOString(),
    });
    revision++;
    natural++;
  }
  plantBefore(lastDay + 1);
  return changes.reverse();
}
