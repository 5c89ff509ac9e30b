import type { ActivityDay } from '@orgreport/api-core';
import type { ReportSection } from '@orgreport/metrics';

export interface WeekdayRow {
  weekday: string;
  days: number;
  avg_dau: number | null;
  avg_sessions: number | null;
  avg_messages: number | null;
}

export interface WeekdayData {
  rows: WeekdayRow[];
  busiest: string | null;
}

export declare function weekdayActivity(
  activity: ReadonlyArray<Pick<ActivityDay, 'date' | 'daily_active_users' | 'sessions' | 'messages'>>,
  period: { start: string; end: string },
): WeekdayRow[];

export declare const section: ReportSection<WeekdayData>;
export default section;
