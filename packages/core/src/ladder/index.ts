export { buildLadder } from './build-ladder.ts';
export { type GameCreateData, type GameFigures, gameCreateData, gameFigures } from './game-info.ts';
export { LADDER_LIMITS } from './ladder-limits.ts';
export { LADDER_SHAPES, type LadderShape } from './ladder-shapes.ts';
export { type LadderStats, ladderStats } from './ladder-stats.ts';
export type { Ladder, LadderInput, LadderLevel, LadderProblem, LadderResult } from './ladder-types.ts';
