/**
 * Destinations by scheme: a target names its destination by its scheme (`slack:#eng` -> slack,
 * `s3://bucket/` -> s3, `dir:reports/` -> dir), and a target without one goes to the destination
 * that claims it (a plain e-mail address -> smtp). The built-in destinations are registered by name;
 * other teams' destinations, declared with `defineDestination` in their own packages, are added
 * beside them.
 */
import { type DestinationDeclaration, DestinationError, defineDestination } from './destination.ts';
import { dirDestination } from './destinations/dir.ts';
import { s3 } from './destinations/s3.ts';
import { slack } from './destinations/slack.ts';
import { smtpDestination } from './destinations/smtp.ts';
import { teams } from './destinations/teams.ts';
import { webhook } from './destinations/webhook.ts';

/** A destination whatever its address type (a registry holds destinations of many). */
// biome-ignore lint/suspicious/noExplicitAny: each destination reads and sends its own address type
export type AnyDestination = DestinationDeclaration<any>;

/** The built-in destinations, by scheme. */
export const builtinDestinations: Readonly<Record<string, AnyDestination>> = {
  smtp: smtpDestination,
  slack: slack as AnyDestination,
  teams: teams as AnyDestination,
  webhook: webhook as AnyDestination,
  s3: s3 as AnyDestination,
  dir: dirDestination,
};

/** A target read by its destination. */
export interface ResolvedTarget {
  /** The target as configured. */
  target: string;
  destination: DestinationDeclaration<unknown>;
  /** What the destination's `parse` made of it. */
  address: unknown;
  /** The target as it may be printed. */
  label: string;
}

const SCHEME_PREFIX = /^([A-Za-z][A-Za-z0-9+.-]{0,31}):/;

/** A set of destinations, one per scheme. */
export class Destinations {
  readonly #byScheme = new Map<string, DestinationDeclaration<unknown>>();

  constructor(destinations: Iterable<AnyDestination> = []) {
    for (const destination of destinations) this.add(destination);
  }

  /** Adds a destination; its scheme must not be taken. */
  add(destination: AnyDestination): this {
    const checked: AnyDestination = defineDestination(destination);
    if (this.#byScheme.has(checked.scheme)) {
      throw new DestinationError(`two destinations have the scheme ${JSON.stringify(checked.scheme)}`);
    }
    this.#byScheme.set(checked.scheme, checked);
    return this;
  }

  /** The destination of `scheme`, if there is one. */
  get(scheme: string): DestinationDeclaration<unknown> | undefined {
    return this.#byScheme.get(scheme.toLowerCase());
  }

  /** Every destination, in the order added. */
  list(): DestinationDeclaration<unknown>[] {
    return [...this.#byScheme.values()];
  }

  /** One line per destination: its scheme, title and syntax (for help and errors). */
  describe(): string {
    return this.list()
      .map((d) => `${d.scheme} (${d.title}): ${d.syntax}`)
      .join('; ');
  }

  /**
   * The destination of `target` and what it reads there. Throws {@link DestinationError} for a
   * target no destination takes (listing the known schemes and how their targets are written) or
   * one its destination cannot read.
   */
  destinationFor(target: string): ResolvedTarget {
    if (typeof target !== 'string' || target.trim() === '') {
      throw new DestinationError(`an empty target; known destinations: ${this.describe()}`);
    }
    const scheme = SCHEME_PREFIX.exec(target)?.[1];
    const destination =
      (scheme === undefined ? undefined : this.get(scheme)) ??
      // A scheme alone (`teams`) is a target of that destination with its default settings.
      this.get(target) ??
      this.list().find((d) => d.claims?.(target) === true);
    if (!destination) {
      const what = scheme === undefined ? 'no destination takes' : `no destination has the scheme ${scheme}:`;
      throw new DestinationError(`${what} ${JSON.stringify(target)}; known destinations: ${this.describe()}`);
    }
    let address: unknown;
    try {
      address = destination.parse(target);
    } catch (error) {
      const reason = error instanceof DestinationError ? error.message : String((error as Error)?.message);
      // The syntax is named once: a destination's own reason may already show it.
      const syntax = reason.includes(destination.syntax) ? '' : ` (written ${destination.syntax})`;
      throw new DestinationError(
        `${destination.title} cannot read ${JSON.stringify(target)}: ${reason}${syntax}`,
        { cause: error },
      );
    }
    return { target, destination, address, label: destination.label(address) };
  }
}

/**
 * The built-in destinations (smtp, dir) and `extra` ones (another team's `slack`, `s3`, ...).
 *
 * @example
 * const destinations = createDestinations([pagerDestination]);
 * destinations.destinationFor('pager:platform').label // 'pager:platform'
 */
export function createDestinations(extra: ReadonlyArray<AnyDestination> = []): Destinations {
  return new Destinations([...Object.values(builtinDestinations), ...extra]);
}
