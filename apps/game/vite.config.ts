import { defineConfig } from 'vite';

// The page is served by the Raspa server at /play/{sessionId}, its files at /play/assets/*.
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
      // zod's sources carry `@__PURE__` comments in places Rollup cannot use; harmless, and noisy.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
    },
  },
  server: { port: 5174 },
});
