/**
 * Readiness reports: several repositories evaluated every one to three weeks, mostly improving,
 * with the occasional skipped criterion (no numerator) or invalid evaluation (numerator above
 * denominator). Ordered newest first, as the endpoint serves them.
 */
import { MS_PER_DAY, type ReadinessReport, toEpochDay } from '@orgreport/api-core';
import { AGENT_VERSIONS, CRITERIA, MODELS, REPOSITORIES } from './catalog.ts';
import { hostileAt } from './hostile.ts';
import { DATA_START_DAY } from './people.ts';
import { Rng } from './prng.ts';

const TAG_READINESS = 11;

/** A repository of the organization and the id the `repoId` filter matches. */
export interface Repository {
  id: string;
  url: string;
  apps: Readonly<Record<string, string>>;
  /** The team of the people directory that owns it (the catalog's, by its kind). */
  team: string;
}

/** The organization's repositories (names cycle through the catalog with a numeric suffix). */
export function buildRepositories(count: number, orgSlug: string, hostile: boolean): Repository[] {
  return Array.from({ length: count }, (_, i) => {
    const base = REPOSITORIES[i % REPOSITORIES.length] as (typeof REPOSITORIES)[number];
    const name =
      i < REPOSITORIES.length ? base.name : `${base.name}-${Math.floor(i / REPOSITORIES.length) + 1}`;
    const id = `${orgSlug}/${name}`;
    // In hostile mode the second repository's URL carries markup.
    const url =
      hostile && i === 1
        ? `https://git.example.com/${orgSlug}/${hostileAt(0)}`
        : `https://git.example.com/${id}`;
    return { id, url, apps: base.apps, team: base.team };
  });
}

/** Every readiness report of the organization, newest first. */
export function buildReadinessReports(
  seed: number,
  repos: readonly Repository[],
  today: string,
  hostile: boolean,
): ReadinessReport[] {
  const reports: ReadinessReport[] = [];
  const lastDay = toEpochDay(today) - 1;
  repos.forEach((repo, ri) => {
    const r = Rng.of(seed, TAG_READINESS, ri);
    const appPaths = Object.keys(repo.apps);
    const baseline = 0.15 + 0.4 * r.next();
    const pace = 0.4 + 0.8 * r.next(); // progress gained per 300 days
    let evaluation = 0;
    for (let day = DATA_START_DAY + r.int(20); day <= lastDay; day += r.range(5, 21), evaluation++) {
      const progress = baseline + (pace * (day - DATA_START_DAY)) / 300;
      const report: ReadinessReport['report'] = {};
      CRITERIA.forEach((c, ci) => {
        const denominator = c.appScoped ? appPaths.length : 1;
        if (r.chance(0.03)) {
          report[c.id] = {
            denominator,
            rationale: `Skipped: ${c.topic} could not be evaluated in this run.`,
          };
          return;
        }
        const p = Math.max(
          0.02,
          Math.min(0.98, 0.5 + 2 * (progress - c.difficulty) + 0.3 * (r.next() - 0.5)),
        );
        const passing = (c.appScoped ? appPaths : ['.']).filter(() => r.chance(p));
        let numerator = passing.length;
        let rationale =
          numerator === denominator
            ? `Found ${c.topic} in ${c.appScoped ? 'every application' : 'the repository'}.`
            : numerator === 0
              ? `No ${c.topic} found.`
              : `${numerator} of ${denominator} applications have ${c.topic}; missing in ${appPaths
                  .filter((a) => !passing.includes(a))
                  .join(', ')}.`;
        if (r.chance(0.01)) {
          numerator = denominator + 1; // an invalid evaluation the API has been seen to return
          rationale = `Counted ${c.topic} twice in ${appPaths[0]}.`;
        }
        if (hostile && ci % 5 === ri % 5) rationale = hostileAt(ci + evaluation);
        report[c.id] = { numerator, denominator, rationale };
      });
      const model = r.pick(MODELS.filter((m) => m.tier === 'thinking'));
      const versionIndex = Math.min(
        AGENT_VERSIONS.length - 1,
        Math.floor(((day - DATA_START_DAY) / 320) * AGENT_VERSIONS.length),
      );
      reports.push({
        reportId: r.uuid(),
        createdAt: day * MS_PER_DAY + r.int(MS_PER_DAY),
        repoUrl: repo.url,
        apps: Object.fromEntries(
          Object.entries(repo.apps).map(([path, description]) => [path, { description }]),
        ),
        report,
        commitHash: r.hex(40),
        branch: r.chance(0.85) ? 'main' : r.pick(['develop', 'agent/readiness-fixes', 'release/2026.1']),
        hasLocalChanges: r.chance(0.1),
        hasNonRemoteCommits: r.chance(0.05),
        modelUsed: { id: model.id, reasoningEffort: r.pick(['low', 'medium', 'high', 'off'] as const) },
        agentVersion: AGENT_VERSIONS[versionIndex] as string,
      });
    }
  });
  return reports.sort((a, b) => b.createdAt - a.createdAt || (a.reportId < b.reportId ? -1 : 1));
}
