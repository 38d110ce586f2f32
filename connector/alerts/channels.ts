import type { AlertSettings, ChatFormat } from './alert-settings';
import { subjectOf, textOf, type Digest } from './digest';
import { smtpMailer } from './mailer';

export type ChannelName = 'email' | 'webhook';

/** Where a digest goes; `send` resolves once the other side accepted it and throws otherwise. */
export interface AlertChannel {
  name: ChannelName;
  send(digest: Digest): Promise<void>;
  close(): void;
}

export function channelsOf(settings: AlertSettings): AlertChannel[] {
  const channels: AlertChannel[] = [];
  if (settings.email) channels.push(emailChannel(settings.email));
  if (settings.webhook) channels.push(webhookChannel(settings.webhook));
  return channels;
}

function emailChannel(email: NonNullable<AlertSettings['email']>): AlertChannel {
  const mailer = smtpMailer(email.smtp, email.from);
  return {
    name: 'email',
    async send(digest) {
      await mailer.send({ to: email.to, subject: subjectOf(digest), text: textOf(digest) });
    },
    close: () => mailer.close(),
  };
}

/** Slack and Teams incoming webhooks read `text`; anything else (n8n, a ticket system) reads the fields. */
export function webhookPayload(digest: Digest, format: ChatFormat = 'plain'): Record<string, unknown> {
  return { text: textOf(digest, format), source: 'magnifinance-connector', tenant: digest.tenant, orders: digest.orders, webhooks: digest.webhooks, ...(digest.regime ? { regime: digest.regime } : {}), more: digest.more, attention: digest.attentionLink };
}

function webhookChannel(webhook: NonNullable<AlertSettings['webhook']>): AlertChannel {
  return {
    name: 'webhook',
    async send(digest) {
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(webhookPayload(digest, webhook.format)),
        signal: AbortSignal.timeout(webhook.timeoutMs),
      });
      // Never log the URL: for Slack and Teams it is the secret.
      if (!response.ok) throw new Error(`the alert webhook answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    },
    close: () => undefined,
  };
}
