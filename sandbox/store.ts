import { randomBytes } from 'node:crypto';
import type { AccountOption, RuntimeConfig } from './options';
import { SandboxClock } from './clock';
import { SeededRandom } from './random';
import {
  emptyState,
  loadStateFile,
  OutboxEmail,
  SandboxAccount,
  SandboxState,
  saveStateFile,
  StoredDocument,
} from './state';

/**
 * The sandbox's memory: state plus the indexes and settings every handler shares. Mutations call
 * `changed()`, which saves the state file soon after (debounced) when `persistPath` is set.
 */
export class SandboxStore {
  state: SandboxState;
  private byId = new Map<number, StoredDocument>();
  private saveTimer: NodeJS.Timeout | undefined;
  readonly clock = new SandboxClock();

  constructor(
    private readonly initialAccounts: AccountOption[],
    public config: RuntimeConfig,
    readonly random: SeededRandom,
    private readonly persistPath?: string,
  ) {
    const loaded = persistPath ? loadStateFile(persistPath) : undefined;
    this.state = loaded ?? emptyState(this.accountsFromOptions(), randomBytes(32).toString('hex'));
    if (loaded) this.mergeConfiguredAccounts();
    this.reindex();
  }

  private accountsFromOptions(): SandboxAccount[] {
    return this.initialAccounts.map((a) => ({ ...a, atCommunication: a.atCommunication ?? false }));
  }

  /** Accounts given on the command line win over the saved ones with the same tax id. */
  private mergeConfiguredAccounts(): void {
    for (const account of this.accountsFromOptions()) {
      const index = this.state.accounts.findIndex((a) => a.taxId === account.taxId);
      if (index === -1) this.state.accounts.push(account);
      else this.state.accounts[index] = account;
    }
  }

  private reindex(): void {
    this.byId = new Map(this.state.documents.map((d) => [d.id, d]));
  }

  now(): number {
    return this.clock.now();
  }

  /** Forget everything except the configured accounts (POST /_sandbox/reset). */
  reset(): void {
    this.state = emptyState(this.accountsFromOptions(), this.state.linkSecret);
    this.reindex();
    this.changed();
  }

  accountByTaxId(taxId: string): SandboxAccount | undefined {
    return this.state.accounts.find((a) => a.taxId === taxId);
  }

  accountByEmail(email: string): SandboxAccount | undefined {
    const wanted = email.toLowerCase();
    return this.state.accounts.find((a) => a.email.toLowerCase() === wanted);
  }

  accountByToken(token: string): SandboxAccount | undefined {
    return this.state.accounts.find((a) => a.token === token);
  }

  addAccount(account: SandboxAccount): void {
    this.state.accounts.push(account);
    this.changed();
  }

  document(id: number): StoredDocument | undefined {
    return this.byId.get(id);
  }

  documents(): readonly StoredDocument[] {
    return this.state.documents;
  }

  addDocument(doc: Omit<StoredDocument, 'id'>): StoredDocument {
    const stored: StoredDocument = { id: this.state.nextDocumentId, ...doc };
    this.state.nextDocumentId += 1;
    this.state.documents.push(stored);
    this.byId.set(stored.id, stored);
    this.changed();
    return stored;
  }

  sendEmail(email: Omit<OutboxEmail, 'id' | 'at'>): OutboxEmail {
    const sent: OutboxEmail = { id: this.state.nextEmailId, at: this.now(), ...email };
    this.state.nextEmailId += 1;
    this.state.outbox.push(sent);
    this.changed();
    return sent;
  }

  changed(): void {
    if (!this.persistPath || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flush(), 50);
    this.saveTimer.unref();
  }

  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.persistPath) saveStateFile(this.persistPath, this.state);
  }
}
