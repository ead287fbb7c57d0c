import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const generator = path.join(__dirname, '..', 'dist', 'scripts', 'api-types.js');
const file = path.join(__dirname, '..', 'src', 'generated', 'api.ts');

describe('generated API types', () => {
  // The generator runs from the build, which `npm test` makes first (it reads adapters-http's built document).
  it('are what generating them again from the served document writes (else: npm run generate -w packages/client)', () => {
    expect(readFileSync(file, 'utf8')).toBe(execFileSync(process.execPath, [generator, '--stdout'], { encoding: 'utf8' }));
  });
});
