export * from './play-errors.ts';
export * from './play-protocol.ts';
