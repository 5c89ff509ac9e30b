/**
 * Child process: the reference figures of one case. Replays the pipeline's requests against a
 * fresh emulator (the fetch floor), then runs the compute floor (DuckDB and a plain JS loop) on the
 * user-day rows of the snapshot the pipeline wrote.
 * argv[2]: JSON `{ baseUrl, apiKey, urlsFile, snapshotDir, concurrency }`.
 */
import { readFile } from 'node:fs/promises';
import { readSnapshot } from '@orgreport/snapshot';
import { digestsAgree, jsAggregations } from './aggregations.ts';
import { duckdbFloor } from './duckdb-floor.ts';
import { cpuMsOf, send } from './process-stats.ts';
import { replayRequests } from './replay.ts';
import type { RecordedRequest } from './request-recorder.ts';

interface FloorSpec {
  baseUrl: string;
  apiKey: string;
  urlsFile: string;
  snapshotDir: string;
  concurrency: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as FloorSpec;
const recorded = (await readFile(spec.urlsFile, 'utf8'))
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as RecordedRequest);
// The recorded URLs point at the pipeline's emulator; the same paths are asked of this one.
const requests = recorded.map((r) => {
  const url = new URL(r.url);
  return { ...r, url: `${spec.baseUrl}${url.pathname}${url.search}` };
});
const cpuBefore = process.cpuUsage();
const fetchFloor = await replayRequests(requests, { apiKey: spec.apiKey, concurrency: spec.concurrency });

const fetchCpuMs = cpuMsOf(process.cpuUsage(cpuBefore));

const snapshot = await readSnapshot(spec.snapshotDir);
const spans = [
  snapshot.manifest.period,
  ...(snapshot.manifest.comparison ? [snapshot.manifest.comparison] : []),
];
const duck = await duckdbFloor(snapshot.userDays, spans);
const jsStarted = performance.now();
const jsDigests = jsAggregations(snapshot.userDays, spans);
const jsLoopMs = performance.now() - jsStarted;

send({
  kind: 'floor',
  fetchMs: fetchFloor.ms,
  fetchCpuMs,
  fetchRequests: fetchFloor.requests,
  fetchBytes: fetchFloor.bytes,
  duckdbLoadMs: duck.loadMs,
  duckdbQueryMs: duck.queryMs,
  jsLoopMs,
  agree: digestsAgree(duck.digests, jsDigests),
});
process.disconnect?.();
