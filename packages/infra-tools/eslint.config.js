// ESLint for the plain ESM scripts of infra/ and this package (no TypeScript here, so the shared
// type-checked config does not apply): the recommended rules with Node globals.
import js from '@eslint/js';

const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'fetch', 'setTimeout', 'clearTimeout', 'URL', 'AbortSignal', 'Buffer'].map(
    (g) => [g, 'readonly'],
  ),
);

export default [
  { ignores: ['**/node_modules/**', '**/dist/**'] },
  js.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: nodeGlobals },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'prefer-const': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['test/**/*.mjs', 'packages/infra-tools/test/**/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(
        ['describe', 'it', 'test', 'expect', 'beforeAll', 'afterAll'].map((g) => [g, 'readonly']),
      ),
    },
  },
];
