/**
 * Shared Jest preset: TypeScript through @swc/jest, native ESM (run Jest with
 * NODE_OPTIONS=--experimental-vm-modules), `.js` import specifiers mapped back to `.ts` sources.
 * Test tiers show in the file name: `*.test.ts` (unit) and `*.int.test.ts` (integration, real
 * PostgreSQL / Redis).
 */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
      },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
};
