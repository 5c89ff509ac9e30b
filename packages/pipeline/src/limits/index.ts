/** Credit limits: read from a file, validated row by row, sent in batches. */

export * from './apply.ts';
export * from './parse.ts';
export * from './read.ts';
export * from './send.ts';
export * from './template.ts';
