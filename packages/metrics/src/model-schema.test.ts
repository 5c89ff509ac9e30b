import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { reportModelSchema } from '../scripts/model-schema.ts';
import { buildReportModel } from './build-report-model.ts';
import { defineSection } from './section.ts';
import { sampleSnapshot } from './testing/sample-snapshot.ts';

const published = JSON.parse(readFileSync(new URL('../report-model.schema.json', import.meta.url), 'utf8'));

describe('the JSON Schema of the report model', () => {
  it('is the one generated from the ReportModel type (run pnpm --filter @orgreport/metrics model-schema)', () => {
    expect(published).toEqual(reportModelSchema());
  }, 30_000);

  it('accepts a realistic model, with a section of its own too, and refuses a model with a field gone or added', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(published);
    const model = buildReportModel(sampleSnapshot(), { generatedAt: '2026-11-01T00:00:00.000Z' });
    expect(validate(model), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const section = defineSection({ id: 'extra', title: 'Extra', compute: () => ({ n: 1 }) });
    const extended = buildReportModel(sampleSnapshot(), {
      generatedAt: '2026-11-01T00:00:00.000Z',
      sections: [section],
    });
    expect(validate(JSON.parse(JSON.stringify(extended)))).toBe(true);
    const { figures: _gone, ...missing } = model;
    expect(validate(missing)).toBe(false);
    expect(validate({ ...model, surprise: 1 })).toBe(false);
  });
});
