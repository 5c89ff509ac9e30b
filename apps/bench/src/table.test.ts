import { describe, expect, it } from 'vitest';
import type { StageResult } from './protocol.ts';
import {
  type CaseResult,
  formatBytes,
  formatMs,
  formatRatio,
  markdownTable,
  stageTable,
  summaryTable,
} from './table.ts';

const stage = (
  name: StageResult['stage'],
  wallMs: number,
  extra: Partial<StageResult> = {},
): StageResult => ({
  stage: name,
  wallMs,
  cpuMs: wallMs / 2,
  requests: 0,
  bytes: 0,
  rows: 0,
  maxRssMb: 100,
  ...extra,
});

describe('formatting', () => {
  it('formats durations, sizes and ratios', () => {
    expect(formatMs(999.4)).toBe('999 ms');
    expect(formatMs(1500)).toBe('1.50 s');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 2 ** 20)).toBe('3.0 MiB');
    expect(formatRatio(300, 100)).toBe('3.0x');
    expect(formatRatio(300, 0)).toBe('-');
  });

  it('aligns a markdown table', () => {
    expect(markdownTable(['a', 'bb'], [['xyz', '1']])).toBe('| a   | bb |\n|-----|---:|\n| xyz |  1 |');
  });
});

describe('tables', () => {
  const result: CaseResult = {
    users: 1000,
    latencyMs: 0,
    emulatorStartMs: 10,
    stages: [
      stage('fetch', 4000, { requests: 26, bytes: 2048, rows: 20_000, maxRssMb: 200 }),
      stage('compute', 600, { maxRssMb: 250 }),
    ],
    endToEndMs: 5000,
    floor: {
      kind: 'floor',
      fetchMs: 2000,
      fetchCpuMs: 500,
      fetchRequests: 26,
      fetchBytes: 2048,
      duckdbLoadMs: 100,
      duckdbQueryMs: 200,
      jsLoopMs: 50,
      agree: true,
    },
  };

  it('lists every stage with its figures and the total', () => {
    const text = stageTable(result);
    expect(text).toContain('| fetch ');
    expect(text).toContain('20,000');
    expect(text).toContain('2.0 KiB');
    expect(text).toMatch(/stages total\s+\|\s+4\.60 s/);
  });

  it('divides by the floors in the summary', () => {
    const text = summaryTable([result]);
    expect(text).toContain('2.0x'); // fetch 4 s over a 2 s floor
    expect(text).toContain('3.0x'); // compute 600 ms over DuckDB's 200 ms
    expect(text).toContain('250 MB'); // the highest peak of the stages
    expect(text).toContain('2.00 s / 500 ms = 4.0x'); // fetch CPU (half its wall here) over the replay's
  });
});
