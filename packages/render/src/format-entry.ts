/**
 * `@orgreport/render/format`: the report's number formatter and its "what changed" paragraph, for
 * callers that tell figures in their own words (the e-mail) without loading the renderer.
 */
export * from './format.ts';
export { whatChangedSentences } from './what-changed.ts';
