import { configSource } from '../config/reload';
import { createLogger } from '../core/logger';
import { EXIT, loadConfigOrExplain, parseCommandArgs } from './command-line';
import { startConnector, type ConnectorRole, type RunningConnector } from '../main/runtime';

const HELP = `Usage: magnifinance connector <serve|work|all> --config FILE [--env-file FILE] [--port N]

  serve    the HTTP side: WooCommerce webhooks, PDF links, /metrics, /healthz, /readyz,
           the dashboard (/admin/queues) and the admin API (/admin/api)
  work     the workers: issue, finalize, write back; the periodic sweep
  all      both in one process

  --config FILE    tenants and settings (JSON or YAML; secrets as {"env": "NAME"} or "\${NAME}")
  --env-file FILE  a .env file the secret references read too (its values win); read again on
                   reload. Without it, the .env beside the tenants file when there is one
  --port N         overrides server.port (so does the PORT environment variable, as in the Docker image)
  --help           this text

Reloads the tenants file (and --env-file) on SIGHUP, without a restart and without refusing a
delivery; a file with mistakes is refused whole and the running tenants stay.
Stops cleanly on SIGTERM/SIGINT: HTTP server, workers, queues, Redis, in that order.
Exit code 0 after a clean stop, 1 for a wrong option, 2 when the tenants file or its .env is refused.
`;

export async function runConnectorCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(
    { args, options: { config: { type: 'string' }, 'env-file': { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: true },
    HELP,
  );
  if (!parsed) return EXIT.notDone;
  const { values, positionals } = parsed;
  const role = positionals[0];
  if (values.help || !role) {
    process.stdout.write(HELP);
    return values.help ? EXIT.done : EXIT.notDone;
  }
  if (role !== 'serve' && role !== 'work' && role !== 'all') {
    process.stderr.write(`Unknown role "${role}".\n\n${HELP}`);
    return EXIT.notDone;
  }
  if (!values.config) {
    process.stderr.write(`--config FILE is required.\n\n${HELP}`);
    return EXIT.notDone;
  }
  // The same file and .env on every reload.
  const source = configSource(values.config, values['env-file']);
  const config = loadConfigOrExplain(values.config, values['env-file']);
  if (!config) return EXIT.configRefused;
  const logger = createLogger();
  const portText = values.port ?? process.env.PORT;
  if (portText !== undefined && !/^\d{1,5}$/.test(portText)) {
    process.stderr.write(`--port (or PORT) must be a port number, not "${portText}".\n`);
    return EXIT.notDone;
  }
  const port = portText === undefined ? undefined : Number(portText);
  // Listened for before the start: SIGHUP's default action would end a process still starting.
  const ready: { connector?: RunningConnector; hungUpEarly?: boolean } = {};
  const onHangUp = (): void => {
    if (ready.connector) void ready.connector.reload();
    else ready.hungUpEarly = true;
  };
  process.on('SIGHUP', onHangUp);
  const started = await startConnector(config, { role: role as ConnectorRole, logger, port, configSource: source });
  ready.connector = started;
  if (ready.hungUpEarly) void started.reload();
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'stopping');
      void started.close().then(resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  process.off('SIGHUP', onHangUp);
  logger.info('stopped');
  // Keep-alive sockets of the HTTP clients (shop, service) would hold the process open for their
  // idle timeout; everything that mattered is closed, in order, so leave now.
  logger.flush();
  setImmediate(() => process.exit(0));
  return 0;
}
