/**
 * The service's clock: one function injected everywhere (`Deps.clock`), never `new Date()` in a
 * rule, so tests move time by hand (test/harness.ts `createTestClock`). The ISO forms the store
 * keeps are read from it here.
 */
export type Clock = () => Date;

export const isoNow = (deps: { clock: Clock }) => deps.clock().toISOString();
export const isoIn = (deps: { clock: Clock }, seconds: number) =>
  new Date(deps.clock().getTime() + seconds * 1000).toISOString();
