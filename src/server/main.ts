// Before anything else of the server is loaded (see tick-shape.ts).
import './lib/tick-shape.ts';
import { fileURLToPath } from 'node:url';

/** Production entry: serves the built web app (`npm start` builds it first when needed). */
async function main() {
  // Loaded only now, after tick-shape.ts has run: loading them starts V8's first full collections.
  const { ConfigError, loadConfig } = await import('./config.ts');
  const { builtRenderer, builtTemplate, closeOnSignals, createLogger, startServer } = await import('./server.ts');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const logger = createLogger(config);
  const webDir = fileURLToPath(new URL('../../web', import.meta.url));
  try {
    const server = await startServer(config, {
      logger,
      webDir,
      template: builtTemplate(webDir, config.basePath),
      render: builtRenderer(fileURLToPath(new URL('../../ssr', import.meta.url))),
    });
    logger.info(`Kitshop is serving at ${server.url}`);
    closeOnSignals(server, logger);
  } catch (error) {
    logger.fatal({ err: error }, (error as Error).message);
    process.exit(1);
  }
}

void main();
