/**
 * scrypt's cost in every test store and test process: N=2^10 hashes in well under a millisecond
 * where 2^17 takes ~100 ms and 128 MiB of a core, which every sign-up and sign-in of every test
 * paid. The production cost is measured on its own (tests/unit/passwords.test.ts), and the tests
 * whose point is the hashing's cost (a sign-up flood) start their stores with it. A run sets
 * SCRYPT_LOG2_N itself to test everything at another cost (SCRYPT_LOG2_N=17 npm test).
 */
export const TEST_SCRYPT_LOG2_N = '10';

/** Sets the test cost for this process and every store it starts (they inherit its environment). */
export function useTestCosts(): void {
  process.env.SCRYPT_LOG2_N ??= TEST_SCRYPT_LOG2_N;
}
