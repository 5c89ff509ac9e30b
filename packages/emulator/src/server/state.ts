/** The mutable state of one running emulator: sessions created or updated, credit limits, a logical clock. */
import { MS_PER_DAY, toEpochDay } from '@orgreport/api-core';
import type { StoredSession } from '../computers.ts';
import type { Organization } from '../organization.ts';

/** The caller roles the emulator knows. */
export type Role = 'owner' | 'manager' | 'member';

/** The API keys of each role. */
export interface EmulatorKeys {
  owner: string;
  manager: string;
  member: string;
}

/** Obviously fake default keys. */
export const DEFAULT_KEYS: EmulatorKeys = {
  owner: 'emu-owner-key',
  manager: 'emu-manager-key',
  member: 'emu-member-key',
};

/** State held in memory for the life of one server. */
export class EmulatorState {
  readonly sessions = new Map<string, StoredSession>();
  /** Credit limits set through the API, by lower-case e-mail. */
  readonly creditLimits = new Map<string, number>();
  private tick = 0;
  private created = 0;
  private readonly clockStart: number;

  constructor(org: Organization) {
    for (const s of org.seedSessions()) this.sessions.set(s.session.sessionId, s);
    // Logical time: 09:00 UTC on "today", one second per write, so runs are reproducible.
    this.clockStart = toEpochDay(org.today) * MS_PER_DAY + 9 * 3_600_000;
  }

  /** The next logical instant (Unix ms). */
  now(): number {
    return this.clockStart + 1000 * this.tick++;
  }

  /** A number for the next created session. */
  nextSessionNumber(): number {
    return this.created++;
  }
}
