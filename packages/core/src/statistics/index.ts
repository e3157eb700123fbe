export {
  type ChiSquareTest,
  chiSquarePValue,
  chiSquareTest,
  goodnessOfFitStatistic,
  independenceStatistic,
  logGamma,
} from './chi-square.ts';
