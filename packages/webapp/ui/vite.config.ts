import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev:ui` proxies the API to a WebApp on :5080; `npm run build:ui` writes ui/dist for the server.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
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
