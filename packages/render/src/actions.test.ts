import type { ActionFact, ReportModel } from '@orgreport/metrics';
import { describe, expect, it } from 'vitest';
import { makeFixtureModel } from './__fixtures__/report-model.ts';
import { reportActions } from './actions.ts';

/** The fixture model with a brief of the given actions (a scoped report's). */
function withActions(actions: ActionFact[]): ReportModel {
  const model = makeFixtureModel();
  return { ...model, sections: { ...model.sections, brief: { headline: [], cost: null, actions } } };
}

const readiness = (failing: string[]): ActionFact => ({
  kind: 'readiness',
  criterion: 'pre_commit_hooks',
  level: 3,
  meanScore: 0.5,
  passed: 5 - failing.length,
  evaluated: 5,
  failing,
});

describe('reportActions', () => {
  it('names the repositories that do not pass the weakest readiness criterion, by path', () => {
    const [action] = reportActions(withActions([readiness(['https://git.example.com/acme/infra'])]));
    expect(action!.title).toBe('Work on "pre_commit_hooks"');
    expect(action!.text).toBe(
      'It is the weakest readiness criterion in your repositories: passed in 4 of 5 repositories, mean score 50.0% (a level-3 criterion). Not passed in acme/infra.',
    );
  });

  it('names four repositories at most, then how many more', () => {
    const urls = ['a', 'b', 'c', 'd', 'e'].map((r) => `https://git.example.com/acme/${r}`);
    const [action] = reportActions(withActions([readiness(urls)]));
    expect(action!.text).toMatch(/Not passed in acme\/a, acme\/b, acme\/c and 2 more\.$/);
  });
});
