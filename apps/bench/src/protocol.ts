/**
 * What the benchmark's child processes send to the parent over IPC: the emulator's address, one
 * measurement per pipeline stage, and the reference figures.
 */

import type { PathTotals } from './request-recorder.ts';

/** One benchmark case: an organization size and a simulated latency. */
export interface BenchCase {
  users: number;
  latencyMs: number;
}

/** The calendar of every case: the report month and the emulated today. */
export interface BenchCalendar {
  /** `YYYY-MM`, a full month before `today`. */
  month: string;
  /** The emulated today, `YYYY-MM-DD`. */
  today: string;
  /** Organization seed. */
  seed: number;
}

/** Sent by the emulator child once it listens. */
export interface EmulatorReady {
  kind: 'emulator-ready';
  baseUrl: string;
  apiKey: string;
  startMs: number;
}

/** Sent by the emulator child when asked for `stats`: what it served so far. */
export interface EmulatorStats {
  kind: 'emulator-stats';
  requests: number;
  bytes: number;
}

/** Sent by the emulator child when asked to stop: what serving cost it. */
export interface EmulatorDone {
  kind: 'emulator-done';
  cpuMs: number;
  maxRssMb: number;
}

/** The stages of the monthly report, in order. */
export const STAGES = ['fetch', 'snapshot', 'compute', 'html', 'pdf', 'xlsx'] as const;
export type StageName = (typeof STAGES)[number];

/** The measurement of one stage of one case. */
export interface StageResult {
  stage: StageName;
  /** Wall time of the stage. */
  wallMs: number;
  /** CPU time (user + system) of the pipeline process during the stage. */
  cpuMs: number;
  /** HTTP requests made (fetch only; 0 elsewhere). */
  requests: number;
  /** Bytes received (fetch) or written (other stages). */
  bytes: number;
  /** Rows handled: user-day rows (fetch, snapshot), user rows of the model (compute, render stages). */
  rows: number;
  /** `process.resourceUsage().maxRSS` after the stage, in MB (a high-water mark of the whole process). */
  maxRssMb: number;
  /** Peak of the summed PSS of this process's child processes during the stage (Chromium), in MB. */
  childPeakRssMb?: number;
  /** Why the stage did not run, if it did not. */
  skipped?: string;
}

/** Sent by the pipeline child after each stage. */
export interface StageMessage {
  kind: 'stage';
  result: StageResult;
}

/** Sent by the pipeline child at the end. */
export interface PipelineDone {
  kind: 'pipeline-done';
  /** Where the snapshot was written and the request URLs recorded. */
  snapshotDir: string;
  urlsFile: string;
  /** The most requests in flight at once. */
  maxInFlight: number;
  /** The most different operations (endpoints) in flight at once: above 1 means they overlapped. */
  maxOverlappingOperations: number;
  /** Responses, bytes and summed response times per path, to check paging and see what is large. */
  byPath: Record<string, PathTotals>;
  /** User-day rows fetched. */
  userDayRows: number;
  /** Active users (organization users who have `/users` rows). */
  usersWithRows: number;
}

/** The reference figures measured on the same data. */
export interface FloorResult {
  kind: 'floor';
  /** Replaying the same URLs with plain fetch + JSON.parse (the `/users` cursor chain kept in order). */
  fetchMs: number;
  /** CPU time of the replaying process (transfer and parse only, the client-side floor). */
  fetchCpuMs: number;
  fetchRequests: number;
  fetchBytes: number;
  /** Loading the user-day columns into DuckDB with the appender. */
  duckdbLoadMs: number;
  /** The compared aggregations in DuckDB (see aggregations.ts). */
  duckdbQueryMs: number;
  /** The same aggregations as one plain JS loop over the columns. */
  jsLoopMs: number;
  /** Checks that both references agree on the result. */
  agree: boolean;
}

/** Sent by the workbook child: one workbook written from a report's JSON model. */
export interface WorkbookDone {
  kind: 'workbook-done';
  /** Users of the model (rows of its Users sheet). */
  users: number;
  /** `writeWorkbook` alone: the model parsed and the renderer loaded before. */
  wallMs: number;
  cpuMs: number;
  bytes: number;
}

/** Any message of a child. */
export type ChildMessage =
  | EmulatorReady
  | EmulatorStats
  | EmulatorDone
  | StageMessage
  | PipelineDone
  | FloorResult
  | WorkbookDone
  | ChildError;

/** Sent by a child that failed. */
export interface ChildError {
  kind: 'error';
  message: string;
}

/**
 * The machine's yardstick in every bench run (`orgreport query --format csv`): a year's credits per
 * user, over the 10k store synced from the API's first day to the bench's today (2026-11-22). Its
 * time on the quiet machines where targets were set is `REFERENCE_YARDSTICK_S` (scaling.ts).
 */
export const YARDSTICK_SQL =
  "SELECT user_id, sum(billable_tokens) AS credits FROM user_days WHERE month BETWEEN '2025-12' AND '2026-11' GROUP BY user_id";
