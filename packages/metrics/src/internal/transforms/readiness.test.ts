import type { ReadinessReport } from '@orgreport/api-core';
import { describe, expect, it } from 'vitest';
import { READINESS_LEVEL_RULE } from '../../definitions.ts';
import {
  criterionScore,
  latestReports,
  mappedLevel,
  readinessLevel,
  readinessScores,
  readinessSection,
} from './readiness.ts';

function report(
  id: string,
  repo: string,
  created: string,
  results: Record<string, [number | null, number | null]>,
): ReadinessReport {
  const evaluations: ReadinessReport['report'] = {};
  for (const [criterion, [numerator, denominator]] of Object.entries(results)) {
    evaluations[criterion] = numerator === null ? { rationale: 'skipped' } : { numerator, denominator };
  }
  return { reportId: id, repoUrl: repo, createdAt: Date.parse(created), apps: {}, report: evaluations };
}

const MAPPING = { a1: 1, b1: 1, c1: 1, d1: 1, e1: 1, a2: 2, b2: 2, a3: 3 };

describe('criterion score', () => {
  it('scores numerator / denominator and passes when they are equal', () => {
    expect(criterionScore('x', { numerator: 1, denominator: 4 })).toMatchObject({
      score: 0.25,
      status: 'partial',
    });
    expect(criterionScore('x', { numerator: 3, denominator: 3 })).toMatchObject({ score: 1, status: 'pass' });
    expect(criterionScore('x', { numerator: 0, denominator: 2 })).toMatchObject({
      score: 0,
      status: 'partial',
    });
  });

  it('skips an evaluation without numerator', () => {
    expect(criterionScore('x', { rationale: 'n/a' })).toMatchObject({ score: null, status: 'skipped' });
    expect(criterionScore('x', { numerator: null, denominator: 2 })).toMatchObject({ status: 'skipped' });
  });

  it('rejects a denominator below 1, a negative numerator or a numerator above the denominator', () => {
    expect(criterionScore('x', { numerator: 0, denominator: 0 }).status).toBe('invalid');
    expect(criterionScore('x', { numerator: -1, denominator: 2 }).status).toBe('invalid');
    expect(criterionScore('x', { numerator: 3, denominator: 2 }).status).toBe('invalid');
    expect(criterionScore('x', { numerator: 1 }).status).toBe('invalid');
  });
});

describe('level mapping', () => {
  it('accepts integer levels 1 to 5 and nothing else', () => {
    const mapping = { a: 1, b: 5, c: 0, d: 2.5, e: 6 };
    expect(['a', 'b', 'c', 'd', 'e', 'f', 'toString'].map((id) => mappedLevel(mapping, id))).toEqual([
      1,
      5,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('report score and level', () => {
  it('averages the scored criteria only, each weighing the same', () => {
    const scored = readinessScores(
      report('r', 'repo', '2026-03-01T00:00:00Z', { a1: [1, 1], b1: [1, 2], c1: [null, null], d1: [5, 2] }),
      MAPPING,
    );
    // (1 + 0.5) / 2; c1 skipped, d1 invalid
    expect(scored).toMatchObject({ score: 0.75, evaluated: 2, passed: 1, skipped: 1, invalid: 1 });
  });

  it('climbs a level when at least 80 % of the level’s scored criteria pass', () => {
    const level = (results: Record<string, [number | null, number | null]>) =>
      readinessLevel(
        readinessScores(report('r', 'repo', '2026-03-01T00:00:00Z', results), MAPPING).criteria,
        MAPPING,
      );
    // level 1: 4 of 5 pass (80 %) -> level 2; level 2: 1 of 2 (50 %) -> stays at 2
    expect(
      level({ a1: [1, 1], b1: [1, 1], c1: [1, 1], d1: [1, 1], e1: [0, 1], a2: [1, 1], b2: [0, 1] }),
    ).toBe(2);
    // level 1: 3 of 5 (60 %) -> stays at 1 even though level 2 passes
    expect(
      level({ a1: [1, 1], b1: [1, 1], c1: [1, 1], d1: [0, 1], e1: [0, 1], a2: [1, 1], b2: [1, 1] }),
    ).toBe(1);
    // a skipped level-1 criterion does not count: 4 of 4 pass; level 2 all pass; level 3 passes; level 4 has none
    expect(
      level({
        a1: [1, 1],
        b1: [1, 1],
        c1: [1, 1],
        d1: [1, 1],
        e1: [null, null],
        a2: [1, 1],
        b2: [2, 2],
        a3: [1, 1],
      }),
    ).toBe(4);
    // no scored criterion at all: level 1
    expect(level({})).toBe(1);
  });
});

describe('repositories, trend and organization', () => {
  const reports = [
    report('r1-feb', 'repo-1', '2026-02-10T12:00:00Z', { a1: [1, 2] }),
    report('r1-mar', 'repo-1', '2026-03-31T23:00:00Z', { a1: [1, 1], a2: [0, 1] }),
    report('r1-apr', 'repo-1', '2026-04-01T00:00:00Z', { a1: [0, 1] }), // after the period
    report('r2-jan', 'repo-2', '2026-01-20T12:00:00Z', {
      a1: [1, 1],
      b1: [1, 1],
      c1: [1, 1],
      d1: [1, 1],
      e1: [1, 1],
      a2: [1, 1],
      b2: [1, 1],
      z9: [1, 1],
    }),
  ];
  const section = readinessSection({
    reports,
    mapping: MAPPING,
    period: { start: '2026-03-01', end: '2026-03-31' },
    comparisonEnd: '2026-02-28',
    topN: 2,
    rule: READINESS_LEVEL_RULE,
  });

  it('takes each repository’s latest report on or before the period’s last day', () => {
    expect([...latestReports(reports, '2026-03-31').values()].map((r) => r.reportId).sort()).toEqual([
      'r1-mar',
      'r2-jan',
    ]);
    expect(section.repos.map((r) => r.report_id)).toEqual(['r1-mar', 'r2-jan']);
  });

  it('computes the trend against the latest report on or before the comparison end', () => {
    const repo1 = section.repos[0]!;
    expect(repo1).toMatchObject({ score: 0.5, previous_score: 0.5, trend: 0 });
    const repo2 = section.repos[1]!;
    expect(repo2).toMatchObject({ score: 1, previous_score: 1, trend: 0 });
  });

  it('averages repository scores and floors the mean level', () => {
    // repo-1: level 1 has one scored criterion, a1, which passes (100 %) -> 2; level 2: a2 fails -> 2
    // repo-2: level 1 all pass, level 2 all pass -> 3; level 3 none scored -> stays 3
    expect(section.repos.map((r) => r.level)).toEqual([2, 3]);
    expect(section.org_score).toBe(0.75);
    expect(section.org_level).toBe(2); // floor(2.5)
  });

  it('orders criteria by mean score, lists the weakest (below 100 % only) and the unmapped ones', () => {
    // a2 averages 50 %; a1 passes in both repositories (100 %), so it is nobody's weakness.
    expect(section.weakest.map((c) => c.criterion)).toEqual(['a2']);
    expect(section.criteria.map((c) => c.criterion).slice(0, 2)).toEqual(['a2', 'a1']);
    expect(section.criteria.find((c) => c.criterion === 'a1')).toMatchObject({
      mean_score: 1,
      evaluated: 2,
      passed: 2,
    });
    expect(section.unmapped_criteria).toEqual(['z9']);
    expect(section.reports.map((r) => r.report_id)).toEqual(['r1-mar']);
    expect(section.rule).toMatch(/80 %/);
  });
});
