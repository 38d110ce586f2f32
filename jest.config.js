/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // Redis for every test: the one at REDIS_URL, else a private redis-server, else a fast clear failure.
  globalSetup: '<rootDir>/test/global/redis-setup.ts',
  globalTeardown: '<rootDir>/test/global/redis-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};
