/**
 * The organization's people: identities (id, names, e-mail, creation and sign-in) and the hidden
 * profile that shapes each user's activity (persona, intensity, models, languages, MCP servers,
 * skills, hooks). Everything derives from (seed, user index), so a user is built on demand.
 */
// The English locale alone: the package's main entry loads every locale (about 150 ms more).
import { faker } from '@faker-js/faker/locale/en';
import { EARLIEST_DATA_DATE, type IsoDate, MS_PER_DAY, toEpochDay } from '@orgreport/api-core';
import { HOOK_SETUPS, LANGUAGES, MCP_SERVERS, MODELS, PERSONAS, SKILLS, SLASH_COMMANDS } from './catalog.ts';
import { HOSTILE_STRINGS, hostileAt, isHostileUser } from './hostile.ts';
import { hash4, hash32, Rng } from './prng.ts';

/** Stream tags, so each purpose draws from its own stream. */
export const TAG = {
  id: 1,
  name: 2,
  profile: 3,
  active: 4,
  day: 5,
  signIn: 6,
} as const;

/** Users who joined before analytics data starts were created from this day on. */
const EARLIEST_CREATION: IsoDate = '2025-06-01';

// faker's en locale lists, drawn from with our own seeded stream: seeding faker itself per user
// costs ~45 µs, far too slow for 100k users.
const FIRST_NAMES: readonly string[] = faker.definitions.person.first_name.generic ?? ['Alex'];
const LAST_NAMES: readonly string[] = faker.definitions.person.last_name.generic ?? ['Smith'];

/** The settings of the synthetic organization that everything derives from. */
export interface OrgConfig {
  seed: number;
  users: number;
  today: IsoDate;
  hostile: boolean;
  domain: string;
}

/** Who a user is, as the organization-users endpoint shows them. */
export interface UserIdentity {
  index: number;
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** The hidden traits that shape a user's activity. */
export interface UserProfile {
  index: number;
  /** Epoch day of account creation, and the exact instant. */
  createdDay: number;
  createdAtMs: number;
  neverSignedIn: boolean;
  persona: number;
  /** Heavy-tailed load multiplier (Pareto, 1 and up). */
  intensity: number;
  /** Chance of being active on a weekday at full growth. */
  activity: number;
  weekendFactor: number;
  autonomyBias: number;
  primaryModel: number;
  secondaryModel: number;
  /** Share of tokens on the secondary model (0 when there is none). */
  secondaryShare: number;
  languages: { index: number; weight: number }[];
  mcp: { server: number; spelling: string; tool: string; weight: number }[];
  mcpShare: number;
  skills: number[];
  slash: number[];
  hooks: number[];
}

/** The user id of a user index: a stable hash prefix plus the index, so the index can be read back. */
export function userIdOf(seed: number, index: number): string {
  return `user_${hash32(seed, index, TAG.id).toString(16).padStart(8, '0')}${index.toString(36)}`;
}

/** The user index of an id of this organization, or undefined. */
export function userIndexOf(config: OrgConfig, id: string): number | undefined {
  if (!/^user_[0-9a-f]{8}[0-9a-z]+$/.test(id)) return undefined;
  const index = Number.parseInt(id.slice(13), 36);
  if (!Number.isSafeInteger(index) || index < 0 || index >= config.users) return undefined;
  return userIdOf(config.seed, index) === id ? index : undefined;
}

function emailSlug(text: string): string {
  return text.toLowerCase().replace(/[^a-z]/g, '') || 'user';
}

/** Builds a user's identity; in hostile mode the first users carry hostile names and e-mails. */
export function buildIdentity(config: OrgConfig, index: number): UserIdentity {
  const rng = Rng.of(config.seed, index, TAG.name);
  let firstName = rng.pick(FIRST_NAMES);
  let lastName = rng.pick(LAST_NAMES);
  let local = `${emailSlug(firstName)}.${emailSlug(lastName)}`;
  // Index 0 stays ordinary: it is the owner who appears in the control history.
  if (isHostileUser(config.hostile, index)) {
    lastName = hostileAt(index - 1);
    if (index % 3 === 0) firstName = hostileAt(index + 4);
    if (index === 2) local = HOSTILE_STRINGS.hyperlinkFormula.replace(/[^=A-Za-z(".:/,)]/g, '');
    if (index === 4) local = '<b>bold</b>+cmd';
  }
  return {
    index,
    id: userIdOf(config.seed, index),
    firstName,
    lastName,
    email: `${local}${index}@${config.domain}`,
  };
}

/** The user index an e-mail belongs to, or undefined (e-mails end in the index before the `@`). */
export function userIndexOfEmail(
  config: OrgConfig,
  email: string,
  identity: (i: number) => UserIdentity,
): number | undefined {
  const m = /(\d+)@[^@]+$/.exec(email);
  if (!m) return undefined;
  const index = Number(m[1]);
  if (!Number.isSafeInteger(index) || index >= config.users) return undefined;
  return identity(index).email.toLowerCase() === email.toLowerCase() ? index : undefined;
}

const THINKING_MODELS = MODELS.flatMap((m, i) => (m.tier === 'thinking' ? [i] : []));
const STANDARD_MODELS = MODELS.flatMap((m, i) => (m.tier === 'standard' ? [i] : []));
const PERSONA_WEIGHTS = PERSONAS.map((p) => p.weight);

/** Builds a user's hidden profile. */
export function buildProfile(config: OrgConfig, index: number): UserProfile {
  const r = Rng.of(config.seed, index, TAG.profile);
  const dataStart = toEpochDay(EARLIEST_DATA_DATE);
  const lastDay = Math.max(dataStart, toEpochDay(config.today) - 1);
  const earliest = toEpochDay(EARLIEST_CREATION);
  // Users 0..2 are early admins; afterwards 55 % joined before data starts, the rest over the year.
  const createdDay =
    index < 3 || r.chance(0.55)
      ? earliest + r.int(dataStart - earliest)
      : dataStart + r.int(lastDay - dataStart + 1);
  const persona = r.weighted(PERSONA_WEIGHTS);
  const p = PERSONAS[persona] as (typeof PERSONAS)[number];
  const primary = r.chance(p.thinkingPreference) ? r.pick(THINKING_MODELS) : r.pick(STANDARD_MODELS);
  const secondary = r.chance(0.5) ? r.pick(r.chance(0.5) ? THINKING_MODELS : STANDARD_MODELS) : primary;
  const languageCount = 1 + r.weighted([50, 35, 15]);
  const languages = r
    .sample(LANGUAGES.length, languageCount)
    .map((i, k) => ({ index: i, weight: (LANGUAGES[i]?.weight ?? 1) / (k + 1) }));
  const mcpCount = r.weighted([45, 30, 15, 10]);
  const mcp = r.sample(MCP_SERVERS.length, mcpCount).map((server) => {
    const s = MCP_SERVERS[server] as (typeof MCP_SERVERS)[number];
    return { server, spelling: r.pick(s.spellings), tool: r.pick(s.tools), weight: 0.5 + r.next() };
  });
  const profile: UserProfile = {
    index,
    createdDay,
    createdAtMs: createdDay * MS_PER_DAY + r.int(MS_PER_DAY),
    neverSignedIn: index >= 3 && r.chance(0.07),
    persona,
    intensity: Math.min(60, (1 - r.next()) ** (-1 / 1.4)),
    activity: index < 3 ? 0.9 : 0.06 + 0.88 * r.next() ** 1.3,
    weekendFactor: p.name === 'automation' ? 0.9 : 0.08 + 0.25 * r.next(),
    autonomyBias: r.logNormal(0.25),
    primaryModel: primary,
    secondaryModel: secondary,
    secondaryShare: secondary === primary ? 0 : 0.1 + 0.3 * r.next(),
    languages,
    mcp,
    mcpShare: mcp.length ? 0.03 + 0.15 * r.next() : 0,
    skills: r.sample(SKILLS.length, r.weighted([40, 30, 20, 10])),
    slash: r.sample(SLASH_COMMANDS.length, r.weighted([20, 30, 30, 20])),
    hooks: r.sample(HOOK_SETUPS.length, r.weighted([55, 25, 15, 5])),
  };
  // Hostile users also run an MCP server named with a hostile value; added without drawing from
  // the stream, so everything else about them stays as in the ordinary organization.
  if (isHostileUser(config.hostile, index)) {
    const s = MCP_SERVERS[0] as (typeof MCP_SERVERS)[number];
    profile.mcp.push({ server: 0, spelling: hostileAt(index + 1), tool: s.tools[0] as string, weight: 1 });
    if (profile.mcpShare === 0) profile.mcpShare = 0.1;
  }
  return profile;
}

/** The first epoch day of analytics data. */
export const DATA_START_DAY = toEpochDay(EARLIEST_DATA_DATE);

/** Organization growth: activity rises from 75 % to about 125 % over the year. */
export function growthOn(day: number): number {
  return 0.75 + (0.5 * Math.max(0, day - DATA_START_DAY)) / 365;
}

/**
 * Whether the user had any activity on an epoch day: a cheap check (one hash) so distinct-user
 * counts over 100k users stay fast. A user row exists exactly on these days.
 */
export function isActiveOn(config: OrgConfig, profile: UserProfile, day: number): boolean {
  if (profile.neverSignedIn || day < profile.createdDay || day < DATA_START_DAY) return false;
  const weekday = (((day + 3) % 7) + 7) % 7; // 0 = Monday ... 6 = Sunday
  const weekend = weekday >= 5 ? profile.weekendFactor : 1;
  const p = Math.min(0.97, profile.activity * weekend * growthOn(day));
  return hash4(config.seed, profile.index, day, TAG.active) / 4294967296 < p;
}

/**
 * When the user last signed in: the last active day before `today` (at a seeded time of day), the
 * creation instant for users who signed in once but never worked in the data window, or null.
 */
export function lastSignInOf(config: OrgConfig, profile: UserProfile): string | null {
  if (profile.neverSignedIn) return null;
  const last = toEpochDay(config.today) - 1;
  for (let day = last; day >= Math.max(profile.createdDay, DATA_START_DAY); day--) {
    if (isActiveOn(config, profile, day)) {
      const ms = day * MS_PER_DAY + (hash4(config.seed, profile.index, day, TAG.signIn) % MS_PER_DAY);
      return new Date(Math.max(ms, profile.createdAtMs)).toISOString();
    }
  }
  return new Date(profile.createdAtMs + 60_000).toISOString();
}
