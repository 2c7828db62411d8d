// Two projects over the same tests: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
// Each test file gets its own fresh database (SQLite file or PostgreSQL schema), so files run in parallel.
const path = require('node:path');

const base = {
  rootDir: path.join(__dirname, '..'),
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The fault tests (issue 36) are their own project: they mount file systems and break databases.
  testPathIgnorePatterns: ['/node_modules/', '/test/faults/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }] },
};

const projects = [
  { ...base, displayName: 'sqlite', globals: { TEST_DIALECT: 'sqlite' } },
  // The SQLite shortcuts through knex internals (SQLITE_FAST_PATHS=on) are off by default: the
  // tests of the database, the caches and the alert pages run through them too, so a knex
  // upgrade that breaks them fails here.
  {
    ...base,
    displayName: 'sqlite-fast-paths',
    globals: { TEST_DIALECT: 'sqlite', SQLITE_FAST_PATHS: 'on' },
    testMatch: [
      '<rootDir>/test/integration/**/*.test.ts',
      '<rootDir>/test/api/response-cache.test.ts',
      '<rootDir>/test/api/cached-read-fast-path.test.ts',
      '<rootDir>/test/api/dependency-alerts.test.ts',
      '<rootDir>/test/graphql/statement-count.test.ts',
    ],
  },
];
// Faults survived (issue 36): a full or read-only disk under SQLite, PostgreSQL restarted,
// stopped and its sessions ended (on a server of the tests' own), each bounded in time.
projects.push({ ...base, displayName: 'faults', globals: { TEST_DIALECT: 'sqlite' }, testPathIgnorePatterns: ['/node_modules/'], testMatch: ['<rootDir>/test/faults/**/*.test.ts'] });
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    ...base,
    displayName: 'postgres',
    globals: { TEST_DIALECT: 'postgres' },
    // Pure logic, configuration checks, the start banner, the browsers and the README (npm start's SQLite demo; it reaches PostgreSQL itself) do not depend on the database: once is enough.
    testPathIgnorePatterns: ['/node_modules/', '/test/faults/', '/test/unit/', '/test/cli/config.test.ts', '/test/cli/serve-banner.test.ts', '/test/e2e/browser.test.ts', '/test/e2e/pages-browser.test.ts', '/test/e2e/cross-origin.test.ts', '/test/e2e/readme.test.ts'],
  });
} else {
  console.log('PostgreSQL run skipped: set TEST_DATABASE_URL=postgres://... to run every database test against PostgreSQL as well.');
}

// Finds or installs the Chromium the browser tests drive (see the file).
// Two workers on the 2-core machine: much of a file's time is spent waiting (PostgreSQL, child
// servers, the browser), so the suite's wall time drops by about 30% (1,595 -> 1,120 s measured)
// though each file runs slower beside another. Jest's default under CI is one worker (cores - 1).
// A worker is replaced once it holds more than 2 GB after a file: ESM support (vm modules) keeps
// every file's module graph alive, and one worker through the whole suite outgrew Node's 4 GB heap.
module.exports = { projects, testTimeout: 30000, maxWorkers: 2, workerIdleMemoryLimit: '2GB', globalSetup: path.join(__dirname, 'setup', 'chromium.js') };
