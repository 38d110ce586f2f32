import { configIssue, configProblem, type ConfigProblem } from '../config/config-messages';
import { z } from 'zod';
import { SecretRefSchema, type SecretRef } from '../config/secret-ref';

/**
 * The `alerts` block of a tenant: who is told, without asking, when an order of this shop needs a
 * person or its webhooks are disabled. Messages are digests (one per channel per `digestSeconds` at
 * most) and capped per hour, so a bad day sends a few messages, not hundreds.
 */
export const AlertsSchema = z
  .object({
    /** At most one message per channel this often; what happens in between waits for the next one. */
    digestSeconds: z.number().int().min(1).default(300),
    /** Hard cap per channel per clock hour; what is not sent stays pending for the next hour. */
    maxMessagesPerHour: z.number().int().min(1).default(6),
    /** Orders listed in one message; the rest follow in the next digest. */
    maxOrdersPerMessage: z.number().int().min(1).max(500).default(50),
    email: z
      .object({
        smtp: z
          .object({
            host: z.string().min(1),
            port: z.number().int().min(1).max(65535).default(587),
            /** true for port 465 (TLS from the start); otherwise STARTTLS is used when the server offers it. */
            secure: z.boolean().default(false),
            /** Refuse to send unless the server offers STARTTLS (never send the password in clear). */
            requireTls: z.boolean().default(false),
            user: SecretRefSchema.optional(),
            password: SecretRefSchema.optional(),
            timeoutMs: z.number().int().positive().default(15_000),
          })
          .strict(),
        from: z.email(),
        to: z.array(z.email()).min(1),
      })
      .strict()
      .optional(),
    /** A JSON POST with `text` (Slack and Teams incoming webhooks show it) plus structured fields. The URL is a secret. */
    webhook: z
      .object({
        url: SecretRefSchema,
        timeoutMs: z.number().int().positive().default(10_000),
        /** How `text` is escaped for the chat that shows it; `auto` tells Slack and Teams by the URL's host. */
        format: z.enum(['auto', 'slack', 'teams', 'plain']).default('auto'),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((alerts) => alerts.email !== undefined || alerts.webhook !== undefined, configIssue('alerts-channel'));
export type AlertsFile = z.infer<typeof AlertsSchema>;

export interface AlertSettings {
  digestSeconds: number;
  maxMessagesPerHour: number;
  maxOrdersPerMessage: number;
  email?: {
    smtp: { host: string; port: number; secure: boolean; requireTls: boolean; user?: string; password?: string; timeoutMs: number };
    from: string;
    to: string[];
  };
  webhook?: { url: string; timeoutMs: number; format: ChatFormat };
}

/** Resolves the secrets of the block (SMTP user and password, the webhook URL). */
export function resolveAlerts(
  file: AlertsFile,
  at: string,
  secret: (ref: SecretRef, path: string) => string,
  problem: (problem: ConfigProblem) => void,
): AlertSettings {
  const settings: AlertSettings = { digestSeconds: file.digestSeconds, maxMessagesPerHour: file.maxMessagesPerHour, maxOrdersPerMessage: file.maxOrdersPerMessage };
  if (file.email) {
    const { user, password, ...smtp } = file.email.smtp;
    settings.email = {
      from: file.email.from,
      to: file.email.to,
      smtp: {
        ...smtp,
        ...(user !== undefined ? { user: secret(user, `${at}.email.smtp.user`) } : {}),
        ...(password !== undefined ? { password: secret(password, `${at}.email.smtp.password`) } : {}),
      },
    };
  }
  if (file.webhook) {
    const url = secret(file.webhook.url, `${at}.webhook.url`);
    if (url && !/^https?:\/\/[^/\s]+/.test(url)) problem(configProblem(`${at}.webhook.url`, 'webhook-url-http', {}));
    settings.webhook = { url, timeoutMs: file.webhook.timeoutMs, format: file.webhook.format === 'auto' ? chatFormatOf(url) : file.webhook.format };
  }
  return settings;
}

/** How a chat reads the `text` of a webhook message: Slack's mrkdwn, Teams' Markdown, or as it is. */
export type ChatFormat = 'slack' | 'teams' | 'plain';

/** Slack's and Teams' incoming-webhook hosts; anything else (n8n, a ticket system) gets plain text. */
export function chatFormatOf(url: string): ChatFormat {
  let host = '';
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return 'plain';
  }
  if (host === 'hooks.slack.com' || host.endsWith('.slack.com')) return 'slack';
  if (host.endsWith('.webhook.office.com') || host === 'outlook.office.com' || host.endsWith('.logic.azure.com') || host.endsWith('.environment.api.powerplatform.com')) return 'teams';
  return 'plain';
}
