import type { Request } from 'express';

/** The caller's address as Express gives it (the `trust proxy` setting decides), '' when unknown. */
export const clientIp = (request: Request): string => request.ip ?? '';
