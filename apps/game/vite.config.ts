import { defineConfig } from 'vite';

// The pages are served by the Raspa server: the player's page (index.html) at /play/{sessionId}, the
// replay page (replay.html) at /replay/{token}; their files at /play/assets/*.
export default defineConfig({
  base: '/play/',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      input: { index: 'index.html', replay: 'replay.html' },
      // zod's sources carry `@__PURE__` comments in places Rollup cannot use; harmless, and noisy.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
    },
  },
  server: { port: 5174 },
});
