export {
  checkDraws,
  DEFAULT_ALPHA,
  DRAW_ORDER_SEGMENTS,
  type DrawCheck,
  type DrawCheckOptions,
  type DrawCheckPool,
  MAX_SIMULATED_CARDS,
  MIN_EXPECTED_PER_CELL,
  type PoolDrawer,
  servicePoolDrawer,
  simulationPoolSeed,
} from './draw-check.ts';
export {
  PLAYER_RESULTS_DEFAULTS,
  PLAYER_RESULTS_LIMITS,
  type PlayerResults,
  playerResults,
  playerResultsProblems,
  REPORTED_PERCENTILES,
  ticketSampler,
} from './player-results.ts';
export {
  MAX_LISTED_TOP_DRAWS,
  type PoolSimulation,
  type PoolSimulationOptions,
  type PoolSimulationState,
  RTP_CURVE_POINTS,
  type RtpPoint,
  type SimulatePoolOptions,
  simulatePool,
  startPoolSimulation,
} from './pool-simulation.ts';
