export * from './play-errors.ts';
export * from './play-protocol.ts';
export * from './replay-round.ts';
