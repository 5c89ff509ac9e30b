/** The JSON Schema of the report model, generated from the `ReportModel` type of `src/model.ts`. */
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

export function reportModelSchema(): object {
  const generator = createGenerator({
    path: fileURLToPath(new URL('../src/model.ts', import.meta.url)),
    tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
    type: 'ReportModel',
    expose: 'export',
    topRef: true,
    jsDoc: 'extended',
    additionalProperties: false,
    skipTypeCheck: true,
  });
  return {
    $comment: 'Generated from ReportModel in src/model.ts by scripts/write-model-schema.ts; do not edit.',
    ...generator.createSchema('ReportModel'),
  };
}
