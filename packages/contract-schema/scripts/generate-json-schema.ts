// Writes json-schema/<name>.json from the zod schemas. Run after changing a schema; the drift
// test (src/json-schemas.test.ts) fails until the committed files match again.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatJsonSchemaFile } from '../src/json-schema-file';
import { JSON_SCHEMA_NAMES, toDraft07JsonSchema } from '../src/json-schemas';

const folder = join(dirname(fileURLToPath(import.meta.url)), '..', 'json-schema');
for (const name of JSON_SCHEMA_NAMES) {
  writeFileSync(join(folder, `${name}.json`), formatJsonSchemaFile(toDraft07JsonSchema(name)));
  console.log(`wrote json-schema/${name}.json`);
}
