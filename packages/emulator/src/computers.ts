/**
 * Computers with provisioning steps (some failed) and a few pre-existing sessions with messages,
 * so that reading sessions and messages works before anything is created.
 */
import {
  type Computer,
  type Message,
  MS_PER_DAY,
  type Session,
  toEpochDay,
  USER_MESSAGE_SOURCES,
} from '@orgreport/api-core';
import type { UserIdentity } from './people.ts';
import { Rng } from './prng.ts';

const TAG_COMPUTERS = 13;
const TAG_SESSIONS = 14;

const STEP_NAMES = [
  'allocate-host',
  'install-runtime',
  'install-agent',
  'configure-relay',
  'clone-repositories',
  'verify-health',
];
const STEP_ERRORS = [
  'timed out waiting for host to become reachable',
  'package install failed: exit code 100',
  'relay handshake rejected: certificate expired',
  'git clone failed: repository not found',
];

/** How many computers an organization of `users` users has. */
export function computerCount(users: number): number {
  return Math.min(200, Math.max(3, Math.ceil(users / 8)));
}

/** The organization's computers; about one in five has a failed provisioning step. */
export function buildComputers(
  seed: number,
  count: number,
  today: string,
  orgId: string,
  owner: (i: number) => UserIdentity,
  users: number,
): Computer[] {
  const lastDay = toEpochDay(today) - 1;
  return Array.from({ length: count }, (_, i) => {
    const r = Rng.of(seed, TAG_COMPUTERS, i);
    const id = `comp_${r.hex(12)}`;
    const createdAt = (lastDay - r.int(300)) * MS_PER_DAY + r.int(MS_PER_DAY);
    const personal = r.chance(0.7);
    const user = owner(r.int(users));
    const failAt = r.chance(0.2) ? r.int(STEP_NAMES.length) : -1;
    const inProgress = failAt < 0 && r.chance(0.05) ? STEP_NAMES.length - 1 : -1;
    let t = createdAt;
    const provisioningSteps = STEP_NAMES.map((name, k) => {
      const startedAt = t;
      t += 5_000 + r.int(120_000);
      const status =
        failAt >= 0 && k > failAt
          ? 'skipped'
          : k === failAt
            ? 'failed'
            : k === inProgress
              ? 'running'
              : 'completed';
      return {
        id: `step_${r.hex(10)}`,
        name,
        status,
        error: status === 'failed' ? r.pick(STEP_ERRORS) : '',
        startedAt: status === 'skipped' ? 0 : startedAt,
        completedAt: status === 'completed' || status === 'failed' ? t : 0,
        installSessionId: `install_${r.hex(10)}`,
      };
    });
    const hostname = personal ? `ws-${r.hex(6)}.corp.example` : `runner-${i}.ci.example`;
    return {
      id,
      name: personal ? `${user.firstName}'s workstation` : `build-runner-${i}`,
      createdAt,
      hostId: r.uuid(),
      hostname,
      provisioningSteps,
      relayClientUrl: `wss://relay.example.com/client/${id}`,
      relayAgentUrl: `wss://relay.example.com/agent/${id}`,
      remoteUser: personal ? 'dev' : 'runner',
      ownerPrincipalKind: personal ? 'user' : 'organization',
      ownerId: personal ? user.id : orgId,
    };
  });
}

/** A session together with its messages, as the emulator stores it. */
export interface StoredSession {
  session: Session;
  messages: Map<string, Message>;
}

/** A few finished sessions on the first computers, with user, assistant and tool messages. */
export function buildSeedSessions(
  seed: number,
  computers: readonly Computer[],
  today: string,
): StoredSession[] {
  const lastDay = toEpochDay(today) - 1;
  const out: StoredSession[] = [];
  computers.slice(0, 3).forEach((computer, ci) => {
    for (let k = 0; k < 2; k++) {
      const r = Rng.of(seed, TAG_SESSIONS, ci, k);
      const createdAt = (lastDay - r.int(20)) * MS_PER_DAY + r.int(MS_PER_DAY / 2);
      const sessionId = `sess_${r.hex(16)}`;
      const messages = new Map<string, Message>();
      let at = createdAt;
      let parentId: string | undefined;
      const roles = ['user', 'assistant', 'tool', 'assistant', 'user', 'assistant'] as const;
      for (const role of roles.slice(0, r.range(3, roles.length))) {
        at += 2_000 + r.int(30_000);
        const id = `msg_${r.hex(16)}`;
        const text =
          role === 'user'
            ? r.pick([
                'Fix the failing unit test in the billing module.',
                'Add pagination to the users list.',
              ])
            : role === 'tool'
              ? 'Exit code 0. 42 tests passed.'
              : r.pick(['I will read the test first.', 'Done: the change is in place and tests pass.']);
        const message: Message = {
          id,
          role,
          content: [{ id: `blk_${r.hex(8)}`, text }],
          createdAt: at,
          updatedAt: at,
          visibility: 'both',
          isUserVisible: role !== 'tool',
          isError: false,
        };
        if (parentId) message.parentId = parentId;
        if (role === 'user') message.userMessageSource = r.pick(USER_MESSAGE_SOURCES.slice(0, 5));
        messages.set(id, message);
        parentId = id;
      }
      out.push({
        session: {
          sessionId,
          status: 'idle',
          messageCount: messages.size,
          createdAt,
          updatedAt: at,
          completedAt: at,
          title: r.pick(['Fix billing test', 'Users pagination', 'Upgrade dependencies']),
          computerId: computer.id,
          sessionSettings: {
            model: 'vendorA-swift-4.5',
            runInWorktree: r.chance(0.5),
            assistantActiveTimeMs: at - createdAt,
            tokenUsage: {
              inputTokens: 40_000 + r.int(100_000),
              outputTokens: 2_000 + r.int(8_000),
              cacheCreationTokens: r.int(10_000),
              cacheReadTokens: r.int(60_000),
              thinkingTokens: r.int(5_000),
              serviceCredits: r.int(50_000),
            },
          },
        },
        messages,
      });
    }
  });
  return out;
}
