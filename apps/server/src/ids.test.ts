import { describe, expect, it } from 'vitest';
import { createIdGenerator } from './ids.ts';

describe('createIdGenerator', () => {
  it('makes UUIDv7-shaped ids that increase strictly, even within one millisecond', () => {
    const at = new Date('2026-03-01T12:00:00.000Z');
    const next = createIdGenerator(() => at);
    const ids = Array.from({ length: 1000 }, next);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]?.slice(0, 13).replace('-', '')).toBe(at.getTime().toString(16).padStart(12, '0'));
  });

  it('never goes backwards when the clock does', () => {
    let now = 2_000_000;
    const next = createIdGenerator(() => new Date(now));
    const first = next();
    now -= 5000;
    expect(next() > first).toBe(true);
  });
});
