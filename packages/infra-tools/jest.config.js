// Plain ESM tests (.mjs) run natively (no transform); run Jest with --experimental-vm-modules.
export default {
  testEnvironment: 'node',
  transform: {},
  moduleFileExtensions: ['mjs', 'js', 'json'],
  testMatch: ['<rootDir>/test/**/*.test.mjs'],
  testTimeout: 60000,
};
