import { writeFileSync } from 'node:fs';

/**
 * Preloaded into the service by the idle-connections bench (`--import`), never by `npm start`: on
 * SIGUSR2 it runs a full garbage collection (with --expose-gc) and writes process.memoryUsage() to
 * RASPA_MEMORY_PROBE_FILE, so the bench can tell settled heap from garbage and from native memory
 * without the service knowing about benches.
 */
const file = process.env.RASPA_MEMORY_PROBE_FILE;
const gc = (globalThis as { gc?: () => void }).gc;

if (file) {
  process.on('SIGUSR2', () => {
    gc?.();
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20 / 0.1) / 10; // MB, one decimal
    const usage = process.memoryUsage();
    const snapshot = {
      at: Date.now(),
      collected: gc !== undefined,
      rssMb: mb(usage.rss),
      heapTotalMb: mb(usage.heapTotal),
      heapUsedMb: mb(usage.heapUsed),
      externalMb: mb(usage.external),
      arrayBuffersMb: mb(usage.arrayBuffers),
    };
    writeFileSync(file, JSON.stringify(snapshot));
  });
}
