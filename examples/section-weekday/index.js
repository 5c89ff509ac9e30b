// An example section from another team: activity by weekday. One declaration holds what it
// computes, its check, its definition, its partial and its workbook sheet.
import { fileURLToPath } from 'node:url';
import { defineSection } from '@orgreport/metrics';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** ISO weekday index (0 = Monday) of a `YYYY-MM-DD` day. */
function weekdayOf(date) {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/**
 * Mean daily active users, sessions and messages of each weekday of the report period, from the
 * `/activity` days of the snapshot.
 */
export function weekdayActivity(activity, period) {
  const rows = WEEKDAYS.map((weekday) => ({ weekday, days: 0, dau: 0, sessions: 0, messages: 0 }));
  for (const day of activity) {
    if (day.date < period.start || day.date > period.end) continue;
    const row = rows[weekdayOf(day.date)];
    row.days++;
    row.dau += day.daily_active_users;
    row.sessions += day.sessions;
    row.messages += day.messages;
  }
  return rows.map((r) => ({
    weekday: r.weekday,
    days: r.days,
    avg_dau: r.days > 0 ? r.dau / r.days : null,
    avg_sessions: r.days > 0 ? r.sessions / r.days : null,
    avg_messages: r.days > 0 ? r.messages / r.days : null,
  }));
}

export const section = defineSection({
  id: 'weekday',
  title: 'Activity by weekday',
  compute: ({ snapshot, model }) => {
    const rows = weekdayActivity(snapshot.activity, model.period);
    const busiest = rows.reduce((a, b) => ((b.avg_dau ?? -1) > (a.avg_dau ?? -1) ? b : a));
    return { rows, busiest: busiest.avg_dau === null ? null : busiest.weekday };
  },
  checks: (_context, data) => {
    const missing = data.rows.filter((r) => r.days === 0).map((r) => r.weekday);
    return missing.length === 0
      ? []
      : [
          {
            kind: 'weekday_without_data',
            message: `${missing.length} weekday(s) have no activity data in the period.`,
            count: missing.length,
            details: missing,
          },
        ];
  },
  definitions: [
    {
      id: 'weekday',
      term: 'Activity by weekday',
      text: 'For each weekday (UTC), the mean over the period\u2019s days of that weekday of daily active users, sessions and messages (/activity); the busiest weekday has the highest mean DAU.',
    },
  ],
  partial: { file: fileURLToPath(new URL('./weekday.hbs', import.meta.url)) },
  sheets: [
    {
      name: 'Weekdays',
      columns: () => [
        { header: 'weekday', kind: 'text', value: (r) => r.weekday },
        { header: 'days', kind: 'integer', value: (r) => r.days },
        { header: 'avg_dau', kind: 'decimal', value: (r) => r.avg_dau },
        { header: 'avg_sessions', kind: 'decimal', value: (r) => r.avg_sessions },
        { header: 'avg_messages', kind: 'decimal', value: (r) => r.avg_messages },
      ],
      rows: (model) => model.sections?.weekday?.rows ?? [],
    },
  ],
});

export default section;
