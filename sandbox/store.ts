import { randomBytes } from 'node:crypto';
import type { AccountOption, RuntimeConfig } from './options';
import { SandboxClock } from './clock';
import { SeededRandom } from './random';
import { normaliseTaxId } from './tax-id';
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
  /** account|client NIF|ExternalId -> document ids, so the duplicate check stays O(1) at any size. */
  private byExternalId = new Map<string, Set<number>>();
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
    this.byExternalId = new Map();
    for (const doc of this.state.documents) this.indexExternalId(doc);
  }

  private static externalIdKey(accountTaxId: string, clientNif: string, externalId: string): string {
    return `${accountTaxId}|${normaliseTaxId(clientNif)}|${externalId}`;
  }

  private indexExternalId(doc: StoredDocument): void {
    if (doc.document.ExternalId === undefined) return;
    const key = SandboxStore.externalIdKey(doc.accountTaxId, doc.client.NIF, doc.document.ExternalId);
    const ids = this.byExternalId.get(key) ?? new Set<number>();
    ids.add(doc.id);
    this.byExternalId.set(key, ids);
  }

  private unindexExternalId(doc: StoredDocument): void {
    if (doc.document.ExternalId === undefined) return;
    this.byExternalId.get(SandboxStore.externalIdKey(doc.accountTaxId, doc.client.NIF, doc.document.ExternalId))?.delete(doc.id);
  }

  /** Documents of an account with this client NIF and ExternalId (the service's duplicate rule). */
  documentsWithExternalId(accountTaxId: string, clientNif: string, externalId: string): StoredDocument[] {
    const ids = this.byExternalId.get(SandboxStore.externalIdKey(accountTaxId, clientNif, externalId));
    return ids ? [...ids].map((id) => this.byId.get(id)).filter((d): d is StoredDocument => d !== undefined) : [];
  }

  /** Replaces a draft's content, keeping the ExternalId index right. */
  updateDraft(doc: StoredDocument, change: (doc: StoredDocument) => void): void {
    this.unindexExternalId(doc);
    change(doc);
    this.indexExternalId(doc);
    this.changed();
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
    this.indexExternalId(stored);
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
    this.saveTimer = setTimeout(() => this.flush(), 250);
    this.saveTimer.unref();
  }

  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.persistPath) saveStateFile(this.persistPath, this.state);
  }
}
