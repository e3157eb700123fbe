export { FORCED_CARDS_PER_CALL, isForcibleLevel, LOSING_LEVEL, unforcibleLevels } from './forced-levels.ts';
