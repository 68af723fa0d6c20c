import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import middie from '@fastify/middie';
import { createServer as createViteServer } from 'vite';
import { loadConfig } from './config.ts';
import { closeOnSignals, createLogger, pointAssetsAtBase, startServer } from './server.ts';

/**
 * Development: the same Fastify server, with Vite in middleware mode for hot reload. The page
 * shell goes through `vite.transformIndexHtml` before the initial data is spliced in, so
 * development and production share one shell and one origin.
 */
const config = loadConfig();
const logger = createLogger(config);
const root = fileURLToPath(new URL('../web', import.meta.url));
const vite = await createViteServer({
  root,
  base: `${config.basePath}/`,
  appType: 'custom',
  server: { middlewareMode: true },
  configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
});
const indexHtml = () => readFileSync(`${root}/index.html`, 'utf8');
const server = await startServer(config, {
  logger,
  dev: true,
  template: async (url) => pointAssetsAtBase(await vite.transformIndexHtml(url, indexHtml()), config.basePath),
  // No server renderer: the browser renders every screen (Vite's module runner cannot load
  // React-Bootstrap's CommonJS for the server); `npm start` and the tests render the public screens.
  beforeRoutes: async (app) => {
    await app.register(middie);
    app.use(vite.middlewares);
  },
});
logger.info(`Kitshop (development) is serving at ${server.url}`);
closeOnSignals(server, logger);
