import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Linted: every package's and example's src, testing, test and scripts TypeScript. Not the child scripts tests spawn
  // (plain CommonJS outside any TypeScript program), nor build output, the benchmark's results or the repository's own
  // scripts.
  { ignores: ['**/dist/', '**/*.js', 'eslint.config.mjs', 'jest.config.ts', 'bench/', 'scripts/'] },
  {
    files: ['{packages,examples}/*/{src,test,testing,scripts}/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Leaving a member out of a copy by naming it (`{ secretHash: _hidden, ...summary }`) is how the code omits one.
      // A parameter a signature requires but this function does not use is named with a leading underscore.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
    },
  },
  {
    // Test answers are untyped by design (supertest's res.body, parsed JSON, child process output, jest's
    // expect.any()): a test reads them only to assert on them, and a wrong read fails that assertion. The contract
    // suites under testing/contracts are tests too, shared by the fakes' and the adapters' test files.
    files: ['{packages,examples}/*/test/**/*.ts', 'packages/*/testing/contracts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The in-memory fakes implement async ports without awaiting anything; `async` keeps their throws rejections,
    // as the PostgreSQL adapters' are, which is what callers of a port handle.
    files: ['packages/*/testing/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
);
