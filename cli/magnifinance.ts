#!/usr/bin/env node
/**
 * The `magnifinance` command. Each subcommand lives with its part (sandbox/cli.ts, ...); this file
 * only dispatches, and loads only the subcommand it runs: `partner` or `doctor` do not pay for
 * loading the queue, the web server and the spreadsheet writer the connector needs.
 */
type Subcommand = (args: string[]) => Promise<number>;

const SUBCOMMANDS: Record<string, { load: () => Promise<Subcommand>; summary: string }> = {
  sandbox: { load: async () => (await import('../sandbox/cli')).runSandboxCommand, summary: 'run a local emulator of the invoicing service (REST + SOAP)' },
  connector: { load: async () => (await import('../connector/cli/connector-command')).runConnectorCommand, summary: 'run the WooCommerce connector: serve | work | all --config FILE' },
  partner: { load: async () => (await import('../connector/cli/partner-command')).runPartnerCommand, summary: 'agency mode: add a partner company, list its tokens' },
  backfill: { load: async () => (await import('../connector/cli/backfill-command')).runBackfillCommand, summary: 'enqueue past orders of a tenant by date range' },
  month: { load: async () => (await import('../connector/cli/month-command')).runMonthCommand, summary: "the accountant's month of a shop: --tenant ID --month YYYY-MM [--saft FILE] [--json]" },
  doctor: { load: async () => (await import('../connector/cli/doctor-command')).runDoctorCommand, summary: 'check each tenant is ready (shop, webhooks, MagniFinance, Redis), with the fixes; --dry-run N' },
};

function usage(): string {
  const lines = Object.entries(SUBCOMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `Usage: magnifinance <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "magnifinance <command> --help" for a command's options.\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 1;
  }
  const command = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${usage()}`);
    return 1;
  }
  return (await command.load())(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
