import { writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { openApiDocument } from '@rcs/adapters-http';

// Runs from the build (dist/scripts): openapi-typescript requires ES modules, which Jest's module loader cannot.
const API_TYPES_FILE = path.join(__dirname, '..', '..', 'src', 'generated', 'api.ts');
const HEADER = '// Generated from the served OpenAPI document by `npm run generate -w packages/client`: do not edit.\n\n';

/** The TypeScript types of the served document, as openapi-typescript writes them, in the repository's format. */
async function apiTypesSource(): Promise<string> {
  const nodes = await openapiTS(openApiDocument as unknown as OpenAPI3);
  const options = await resolveConfig(API_TYPES_FILE);
  return format(HEADER + astToString(nodes), { ...options, filepath: API_TYPES_FILE });
}

// With --stdout it prints them instead, for the test that checks the file is current.
void apiTypesSource().then((source) => (process.argv.includes('--stdout') ? process.stdout.write(source) : writeFileSync(API_TYPES_FILE, source)));
