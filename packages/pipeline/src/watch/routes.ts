/**
 * Where each alert goes: the routes of the config file's `watch.routes` (and `--deliver`, a route to
 * the organization that sees no one), each with its targets, the scope whose alerts it takes, whose
 * alerts about one person it may see and which rules. An alert goes to a route when its rule is
 * listed, its scope lies inside the route's scope on the alert's day, and the privacy rules of
 * reports allow it: a person's alert only where the route sees everyone, or its scope's people and
 * the person is one of them; a team's or cost center's alert of fewer people than the minimum group
 * size only where the route sees people. What privacy keeps from a route is counted, never sent; in
 * what a route does receive, nobody it may not see is named (`withholdPeople` of the reports).
 */
import type {
  DirectoryIndex,
  Identity,
  PeopleDirectory,
  PersonRows,
  ResolvedScope,
  ScopeSpec,
} from '@orgreport/metrics';
import type { Alert, RuleName } from '@orgreport/watch';
import { UsageError } from '../errors.ts';
import type { WatchRouteConfig } from './watch-settings.ts';

/** One route of alerts. */
export interface WatchRoute {
  /** Its number as printed and recorded (from 1, in the config file's order; `--deliver` last). */
  number: number;
  /** Where it is written: `watch.routes[0]` or `--deliver`. */
  source: string;
  /** Its delivery targets, as written (e-mail addresses in lower case). */
  to: string[];
  scope: ScopeSpec;
  people: PersonRows;
  /** The rules whose alerts it takes; undefined: every rule. */
  rules?: readonly RuleName[];
}

/** What one alert does with the routes. */
export interface Routing {
  /** The routes that receive it. */
  routes: WatchRoute[];
  /** The routes whose scope and rules take it but privacy keeps it from, with why. */
  withheld: Array<{ route: WatchRoute; reason: string }>;
}

/** The functions of `@orgreport/metrics` the routing uses (loaded by the caller, with the package). */
export interface ScopeFunctions {
  parseScope: (text: string) => ScopeSpec;
  indexDirectory: (
    directory: PeopleDirectory,
    range: { start: string; end: string },
    options?: { managers?: boolean },
  ) => DirectoryIndex;
  resolveScope: (index: DirectoryIndex, spec: ScopeSpec) => ResolvedScope;
  inScopeOn: (scope: ResolvedScope, email: string | null | undefined, day: string) => boolean;
  withholdPeople: <T>(value: T, people: ReadonlyArray<Identity>, allowed: Iterable<string>) => T;
}

/**
 * The routes of a run: the config file's, then `--deliver` (its `deliver` setting) as a route to the
 * organization whose people it may not see. `normal` writes a target the way the ledger keys it.
 */
export function watchRoutes(
  configured: readonly WatchRouteConfig[],
  deliver: readonly string[],
  parseScope: ScopeFunctions['parseScope'],
  normal: (target: string) => string,
): WatchRoute[] {
  const routes: WatchRoute[] = configured.map((r, i) => ({
    number: i + 1,
    source: `watch.routes[${i}]`,
    to: r.to.map(normal),
    scope: parseScope(r.scope),
    people: r.people,
    ...(r.rules && { rules: r.rules }),
  }));
  if (deliver.length > 0) {
    routes.push({
      number: routes.length + 1,
      source: '--deliver',
      to: deliver.map(normal),
      scope: { kind: 'org', name: '' },
      people: 'none',
    });
  }
  return routes;
}

/** The kind of scope of the directory a group alert is about. */
const GROUP_KIND = { team: 'team', cost_center: 'cost-center' } as const;

/** Routes alerts, each against the directory on its own day. */
export class AlertRouter {
  readonly #scopes = new Map<WatchRoute, ResolvedScope | null>();
  readonly #groups = new Map<string, ResolvedScope | null>();

  /**
   * Resolves every route's scope against the directory: a route to a team, cost center or manager
   * the directory does not know (or without a directory) is a {@link UsageError} naming the route.
   */
  constructor(
    readonly routes: readonly WatchRoute[],
    private readonly options: {
      /** The directory over the days alerts may be about (managers followed when a route needs them). */
      index: DirectoryIndex | undefined;
      minGroupSize: number;
      fns: ScopeFunctions;
    },
  ) {
    for (const route of routes) {
      if (route.scope.kind === 'org') {
        this.#scopes.set(route, null);
        continue;
      }
      const written = `${route.scope.kind}:${route.scope.name}`;
      if (!options.index) {
        throw new UsageError(
          `${route.source}: the scope ${written} needs the people directory (--directory, ORGREPORT_DIRECTORY or "directory")`,
        );
      }
      try {
        this.#scopes.set(route, options.fns.resolveScope(options.index, route.scope));
      } catch (error) {
        throw new UsageError(`${route.source}: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  /** The members of a team or cost center of the directory on `day` (lower-case e-mails). */
  #groupMembers(kind: 'team' | 'cost_center', name: string, day: string): string[] {
    const { index, fns } = this.options;
    if (!index) return [];
    const id = `${kind}\u0000${name}`;
    if (!this.#groups.has(id)) {
      let resolved: ResolvedScope | null = null;
      try {
        resolved = fns.resolveScope(index, { kind: GROUP_KIND[kind], name });
      } catch {
        // A group the directory no longer knows: it has no people, so it fits no narrower route.
      }
      this.#groups.set(id, resolved);
    }
    const group = this.#groups.get(id);
    return group ? Object.keys(group.members).filter((e) => fns.inScopeOn(group, e, day)) : [];
  }

  /** Whether the alert's scope lies inside the route's on the alert's day. */
  #inside(alert: Alert, route: WatchRoute, members: readonly string[]): boolean {
    const scope = this.#scopes.get(route);
    if (!scope) return true; // the organization holds every alert
    if (alert.scope.kind === 'organization') return false;
    if (alert.scope.kind === 'user') return this.options.fns.inScopeOn(scope, alert.email, alert.day);
    const kind = GROUP_KIND[alert.scope.kind];
    if (scope.kind === kind && scope.name.toLowerCase() === alert.scope.name.toLowerCase()) return true;
    return members.length > 0 && members.every((e) => this.options.fns.inScopeOn(scope, e, alert.day));
  }

  /** Why privacy keeps the alert from the route; undefined when it may receive it. */
  #withheldBecause(alert: Alert, route: WatchRoute, members: readonly string[]): string | undefined {
    if (alert.person) {
      if (route.people === 'all') return undefined;
      const scope = this.#scopes.get(route);
      if (route.people === 'scope' && (!scope || this.options.fns.inScopeOn(scope, alert.email, alert.day)))
        return undefined;
      return route.people === 'none'
        ? 'an alert about one person, and the route sees no one (people: none)'
        : "an alert about a person outside the route's scope on its day";
    }
    if (alert.scope.kind === 'team' || alert.scope.kind === 'cost_center') {
      const { minGroupSize } = this.options;
      if (members.length < minGroupSize && route.people === 'none') {
        return `a group of ${members.length} ${members.length === 1 ? 'person' : 'people'} in the directory, under the minimum group size of ${minGroupSize}, and the route sees no one (people: none)`;
      }
    }
    return undefined;
  }

  /** The routes that receive an alert and those privacy keeps it from. */
  route(alert: Alert): Routing {
    const members =
      alert.scope.kind === 'team' || alert.scope.kind === 'cost_center'
        ? this.#groupMembers(alert.scope.kind, alert.scope.name, alert.day)
        : [];
    const out: Routing = { routes: [], withheld: [] };
    for (const route of this.routes) {
      if (route.rules && !route.rules.includes(alert.rule)) continue;
      if (!this.#inside(alert, route, members)) continue;
      const reason = this.#withheldBecause(alert, route, members);
      if (reason) out.withheld.push({ route, reason });
      else out.routes.push(route);
    }
    return out;
  }

  /**
   * The alert as a route receives it: whole where the route sees everyone; else with everyone it
   * may not see (anyone for `people: none`, anyone outside its scope on the alert's day for
   * `scope`) replaced by `(withheld)`, and without its query when the query named one of them (a
   * team's members): the document it names shows more. `identities` are everyone an alert might
   * name (the directory's people, the store's users, the control history's authors).
   */
  alertFor(alert: Alert, route: WatchRoute, identities: ReadonlyArray<Identity>): Alert {
    const scope = this.#scopes.get(route);
    if (route.people === 'all' || (route.people === 'scope' && !scope)) return alert;
    const { fns } = this.options;
    const allowed =
      route.people === 'scope' && scope
        ? Object.keys(scope.members).filter((e) => fns.inScopeOn(scope, e, alert.day))
        : [];
    const shown = fns.withholdPeople(
      { sentence: alert.sentence, figures: alert.figures, more: alert.more },
      identities,
      allowed,
    );
    const { sql: _named, ...more } = shown.more;
    return {
      ...alert,
      sentence: shown.sentence,
      figures: shown.figures,
      more: shown.more.sql === alert.more.sql ? shown.more : more,
    };
  }
}
