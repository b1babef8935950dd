import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { CHUNK_SIZE_LIMIT_KB, chunkSizeGuard } from './chunk-size-guard.js';

/**
 * The libraries in their own chunks, each under Vite's 500 kB warning (`chunkSizeGuard` fails the build
 * otherwise; packages/webapp/test/ui-bundle.test.ts): they change less often than the pages, so browsers keep them cached
 * across upgrades. The first group a module matches wins (`priority`, highest first).
 */
const VENDOR_CHUNKS = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 40 },
  { name: 'charts', test: /node_modules[\\/](recharts|d3-[^\\/]+|victory-vendor)[\\/]/, priority: 30 },
  { name: 'graph', test: /node_modules[\\/]@dagrejs[\\/]/, priority: 20 },
  { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
];

// `npm run dev:ui` proxies the API to a WebApp on :5080; `npm run build:ui` writes ui/dist for the server.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), chunkSizeGuard()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: CHUNK_SIZE_LIMIT_KB,
    rolldownOptions: { output: { codeSplitting: { groups: VENDOR_CHUNKS } } },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:5080',
      '/account/login': {
        target: 'http://127.0.0.1:5080',
        bypass: (req) => (req.method === 'GET' ? '/index.html' : undefined),
      },
      '/account/logout': 'http://127.0.0.1:5080',
      '/account/change-password': 'http://127.0.0.1:5080',
      '/openapi.json': 'http://127.0.0.1:5080',
    },
  },
});
