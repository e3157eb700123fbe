export * from './free-card-choice.ts';
export * from './free-cards-figure.ts';
export * from './promo-report.ts';
export * from './promotion-limits.ts';
export * from './promotion-status.ts';
