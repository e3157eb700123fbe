import { isCurrencyCode } from '@raspa/core';
import { z } from 'zod';

export const LANGS = ['pt', 'en', 'es'] as const;
export const lang = z.enum(LANGS, 'must be pt, en or es');

export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in capitals, e.g. BRL')
  .refine(isCurrencyCode, 'is not an ISO 4217 currency code');

/**
 * An id, in the path, a query or a body: printable, as every id the service makes. A NUL never
 * gets this far (validation.ts refuses it in any string); the other control characters stop here.
 */
export const id = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .regex(/^\P{Cc}*$/u, 'must not contain control characters');

/** An origin as browsers send it: scheme, host and port, no path (CSP frame-ancestors). */
export const origin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}, 'must be an origin such as https://casino.example (scheme, host and optional port, no path)');

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const isoTime = z
  .string()
  .meta({ description: 'ISO 8601 UTC with milliseconds', example: '2026-01-31T12:00:00.000Z' });

export const successStatus = z.literal('success');

export const messagesBody = z
  .object({ status: successStatus, messages: z.array(z.string()) })
  .meta({ id: 'Messages' });
export const statusBody = z.object({ status: successStatus }).meta({ id: 'StatusOnly' });

/** A SHA-256 (or other 32-byte value) in lowercase hex: commitments, seeds, Merkle roots. */
export const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
