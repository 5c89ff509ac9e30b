/**
 * The "what changed" paragraph names the month's active users once: when they are among the
 * figures that moved, who came and went ends that figure's sentence.
 */
import type { ChangeFact, Figure } from '@orgreport/metrics';
import { describe, expect, it } from 'vitest';
import { whatChangedSentences } from './what-changed.ts';

function figure(id: Figure['id'], label: string, value: number, previous: number): ChangeFact {
  return {
    kind: 'figure',
    figure: {
      id,
      label,
      value,
      previous,
      change: (value - previous) / previous,
      changeKind: 'relative',
      unit: 'count',
    },
  };
}

const USERS: ChangeFact = { kind: 'users', active: 5, new: 1, lost: 0 };

describe('whatChangedSentences', () => {
  it('tells who came and went in the active users sentence when that figure moved', () => {
    const sentences = whatChangedSentences({
      comparisonHasData: true,
      whatChanged: [
        figure('sessions', 'Sessions', 150, 100),
        figure('active_users', 'Active users', 5, 4),
        USERS,
      ],
    });
    expect(sentences).toEqual([
      'Sessions rose 50.0% to 150 (from 100).',
      'Active users rose 25.0% to 5 (from 4): 1 new, 0 no longer active.',
    ]);
  });

  it('keeps the sentence of their own when active users did not move enough to be told', () => {
    const sentences = whatChangedSentences({
      comparisonHasData: true,
      whatChanged: [figure('sessions', 'Sessions', 150, 100), USERS],
    });
    expect(sentences).toEqual([
      'Sessions rose 50.0% to 150 (from 100).',
      '5 active users: 1 new, 0 no longer active.',
    ]);
  });

  it('tells a fall the same way', () => {
    const sentences = whatChangedSentences({
      comparisonHasData: true,
      whatChanged: [
        figure('active_users', 'Active users', 4, 5),
        { kind: 'users', active: 4, new: 0, lost: 1 },
      ],
    });
    expect(sentences).toEqual(['Active users fell 20.0% to 4 (from 5): 0 new, 1 no longer active.']);
  });

  it("tells a scope's people who moved in or out apart from those who started or stopped", () => {
    // 3 last month; 17 moved in, 1 started, 1 moved out: 3 + 17 + 1 - 1 = 20.
    const sentences = whatChangedSentences({
      comparisonHasData: true,
      whatChanged: [{ kind: 'users', active: 20, new: 1, lost: 0, movedIn: 17, movedOut: 1 }],
    });
    expect(sentences).toEqual(['20 active users: 1 new, 17 moved in, 0 no longer active, 1 moved out.']);
  });
});
