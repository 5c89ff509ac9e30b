// Writes orgreport.config.schema.json from the config file's zod schema (config.test.ts checks it is current).
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../src/config/config.ts';

writeFileSync(
  new URL('../orgreport.config.schema.json', import.meta.url),
  `${JSON.stringify(configJsonSchema(), null, 2)}\n`,
);
