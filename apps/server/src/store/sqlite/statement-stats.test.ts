import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeStatementCounts } from './statement-stats.ts';

describe('writeStatementCounts', () => {
  it('puts the whole snapshot at file.pid and leaves nothing beside it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'raspa-statements-'));
    try {
      const counts = { 'SELECT 1': { calls: 2, ms: 0.5 } };
      writeStatementCounts(join(dir, 'stats'), counts);
      writeStatementCounts(join(dir, 'stats'), { ...counts, COMMIT: { calls: 1, ms: 3 } });
      expect(readdirSync(dir)).toEqual([`stats.${process.pid}`]);
      expect(JSON.parse(readFileSync(join(dir, `stats.${process.pid}`), 'utf8'))).toEqual({
        ...counts,
        COMMIT: { calls: 1, ms: 3 },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
