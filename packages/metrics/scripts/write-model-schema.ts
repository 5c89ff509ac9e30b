// Writes report-model.schema.json, the JSON Schema of the report model, from its one source: the
// ReportModel type of src/model.ts (a test checks the file is current and the demo report validates).
import { writeFileSync } from 'node:fs';
import { reportModelSchema } from './model-schema.ts';

writeFileSync(
  new URL('../report-model.schema.json', import.meta.url),
  `${JSON.stringify(reportModelSchema(), null, 2)}\n`,
);
