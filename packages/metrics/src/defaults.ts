/**
 * The metrics' defaults a caller reads before it computes anything (the CLI's configuration): a
 * module of its own, with no imports, so reading one loads none of the metrics.
 */

/** The default minimum group size: no figure for a group of fewer people (as Viva Insights' default). */
export const DEFAULT_MIN_GROUP_SIZE = 5;
