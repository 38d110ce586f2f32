import { parseArgs } from 'node:util';
import { z } from 'zod';
import { AccountOption, DEMO_ACCOUNT, SandboxOptionsSchema } from './options';
import { startSandbox } from './server';

/**
 * `magnifinance sandbox`: runs the emulator until SIGINT/SIGTERM and prints where it listens and
 * which accounts it knows.
 */

const HELP = `Usage: magnifinance sandbox [options]

  --port N                 port to listen on (default 4010; 0 = any free port)
  --host HOST              interface to bind (default 127.0.0.1)
  --account EMAIL:TOKEN[:TAXID[:NAME]]
                           an account (repeatable; default ${DEMO_ACCOUNT.email}:${DEMO_ACCOUNT.token}:${DEMO_ACCOUNT.taxId})
  --at-communication       closed waybills of every account get an AT code
  --finalize-delay MS      delay before Get Document gives number and PDF (default 10000)
  --not-numbered ANSWER    Get Document before that delay: element-does-not-exist (6, default,
                           as the real service) or null-number (success, number null: the spec)
  --latency MS             added to every API answer (default 0)
  --error-rate R           share of API requests answered 500 (0..1, default 0)
  --timeout-rate R         share of API requests carried out but never answered (0..1, default 0)
  --seed N                 makes injected faults and generated tokens repeatable
  --persist FILE           keep state in FILE across restarts
  --help                   this text
`;

const NumberText = z.string().regex(/^\d+(\.\d+)?$/, 'must be a non-negative number').transform(Number);
const IntegerText = z.string().regex(/^\d+$/, 'must be a whole number').transform(Number);

/** EMAIL:TOKEN[:TAXID[:NAME]] (the name may itself contain colons). */
export function parseAccountFlag(text: string, atCommunication: boolean): AccountOption {
  const [email, token, taxId, ...name] = text.split(':');
  if (!email || !token) throw new Error(`--account "${text}" must look like EMAIL:TOKEN[:TAXID[:NAME]]`);
  return {
    email,
    token,
    taxId: taxId || DEMO_ACCOUNT.taxId,
    companyName: name.length > 0 ? name.join(':') : `${email.split('@')[0]} (sandbox)`,
    atCommunication,
  };
}

/** The options as parseArgs reads them (strict): an unknown option or a missing value says which, with the usage line (exit 1, as every magnifinance command). */
function readOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        account: { type: 'string', multiple: true },
        'at-communication': { type: 'boolean' },
        'finalize-delay': { type: 'string' },
        'not-numbered': { type: 'string' },
        latency: { type: 'string' },
        'error-rate': { type: 'string' },
        'timeout-rate': { type: 'string' },
        seed: { type: 'string' },
        persist: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${HELP.split('\n')[0]}\nRun it with --help for every option.\n`);
    return undefined;
  }
}

export async function runSandboxCommand(args: string[]): Promise<number> {
  const read = readOptions(args);
  if (!read) return 1;
  const { values } = read;
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const at = values['at-communication'] ?? false;
  const parsed = z
    .object({
      port: IntegerText.optional(),
      finalizeDelayMs: IntegerText.optional(),
      notNumberedAnswer: z.enum(['element-does-not-exist', 'null-number']).optional(),
      latencyMs: IntegerText.optional(),
      errorRate: NumberText.optional(),
      timeoutRate: NumberText.optional(),
      seed: IntegerText.optional(),
    })
    .safeParse({
      port: values.port,
      finalizeDelayMs: values['finalize-delay'],
      notNumberedAnswer: values['not-numbered'],
      latencyMs: values.latency,
      errorRate: values['error-rate'],
      timeoutRate: values['timeout-rate'],
      seed: values.seed,
    });
  if (!parsed.success) {
    process.stderr.write(`${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n')}\n\n${HELP}`);
    return 1;
  }
  const accounts = values.account?.map((a) => parseAccountFlag(a, at)) ?? [{ ...DEMO_ACCOUNT, atCommunication: at }];
  const options = SandboxOptionsSchema.parse({
    ...parsed.data,
    port: parsed.data.port ?? 4010,
    host: values.host,
    accounts,
    persistPath: values.persist,
  });
  const sandbox = await startSandbox(options);
  const out = [
    `Invoicing service sandbox listening`,
    `  REST base URL: ${sandbox.baseUrl}`,
    `  SOAP URL:      ${sandbox.soapUrl}`,
    `  Admin:         ${sandbox.origin}/_sandbox/ (documents, outbox, payments, partners/approve, config, clock, reset)`,
    `  Finalize delay ${sandbox.store.config.finalizeDelayMs} ms${options.persistPath ? `; state in ${options.persistPath}` : ''}`,
    `  Accounts (email / token / tax id / company):`,
    ...sandbox.store.state.accounts.map(
      (a) => `    ${a.email}  ${a.token}  ${a.taxId}  ${a.companyName}${a.atCommunication ? '  [AT communication]' : ''}`,
    ),
    '',
  ];
  process.stdout.write(out.join('\n'));
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.stdout.write(`\n${signal}: stopping the sandbox\n`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await sandbox.close();
  return 0;
}
