import { defineConfig } from 'vitest/config';

// Tests run against src/ through the `source` export condition: no build needed to test.
const conditions = ['source', 'module', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts', 'bench/test/**/*.test.js'],
    reporters: ['default', 'json'],
    outputFile: { json: '.ci/vitest-report.json' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
