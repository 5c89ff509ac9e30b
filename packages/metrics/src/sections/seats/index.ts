/** Seats and credit limits: seats, their utilization, dormant seats and the top users by credits. */
import { fileURLToPath } from 'node:url';
import { runOf } from '../../internal/run.ts';
import { builtinSection } from '../builtin.ts';

export const seats = builtinSection('seats', {
  id: 'seats',
  title: 'Seats and credit limits',
  // The seats are counted with the period's figures (seats, utilization, dormant seats).
  compute: (context) => runOf(context).current.seats,
  definitions: [
    {
      id: 'seats',
      term: 'Seats',
      text: 'Seats = organization users that existed on the period\u2019s last day (created on or before it; users without a creation date count). Seat utilization = active users of the month / seats; in a report for a set of people, seats used / seats (a seat is used when its holder used the agent in the period anywhere in the organization, before moving in too), as its active users count people who have since moved out. Dormant seats = seats whose user (matched by id or e-mail) had no activity in the period; each shows its last day with activity in the fetched days (the period and the month before) and its last sign-in as the API gives it. A dormant seat is a candidate to reclaim when it existed before the month before began and had no activity in that month either (a seat created since is never one, for want of activity in a month before it existed; without the month before, no seat is one).',
    },
    {
      id: 'limits',
      term: 'Credit limits',
      text: 'Where a credit-limit file is given, each user\u2019s credits in the period are shown against their limit (matched by e-mail, any case): utilization = credits / limit, flagged at 80 % and at 100 %.',
    },
  ],
  partial: { file: fileURLToPath(new URL('./seats.hbs', import.meta.url)) },
});
