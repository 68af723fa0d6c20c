import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.ts';
import { builtRenderer, builtTemplate, closeOnSignals, createLogger, startServer } from './server.ts';

/** Production entry: serves the built web app (`npm start` builds it first when needed). */
async function main() {
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
