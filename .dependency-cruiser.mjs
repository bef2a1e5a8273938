/**
 * dependency-cruiser configuration of the import-cycle check in `pnpm lint`: no module of an app
 * or package imports one that imports it back, type-only imports included (docs/architecture.md
 * "Feature shape", docs/decisions.md D260).
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'This module imports one that imports it back (type-only imports count too): move what ' +
        'both need into a module of its own.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Counts `import type` and imports used only as types, which TypeScript erases on emit.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage|node_modules)/' },
    moduleSystems: ['es6'],
  },
};
