import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { ClientData, DocumentData, DocumentKind } from './document-model';
import type { DocumentTypeLetter } from './reference-data';

/**
 * Everything the sandbox remembers, as one plain JSON-able value so `persistPath` can save and
 * reload it. Numbers that are money stay decimal text.
 */

export interface SandboxAccount {
  email: string;
  token: string;
  taxId: string;
  companyName: string;
  atCommunication: boolean;
  /** Password of the account's main API user (Get Partner Access Tokens' Password header); default DEFAULT_SANDBOX_PASSWORD. */
  password?: string;
  address?: string;
  city?: string;
  postCode?: string;
  /** The account's VAT rates (default TAX_RATES); another rate on a line is 22 InvalidPercentage. */
  taxRates?: string[];
  /** Configured series per document type; a type listed refuses other series (18 SerieDataNotMatch). */
  series?: Partial<Record<DocumentTypeLetter, string[]>>;
}

export type DocumentStatus = 'draft' | 'closed' | 'canceled';

export interface StoredPayment {
  amount: string;
  at: number;
}

export interface StoredDocument {
  id: number;
  /** Tax id of the account the document belongs to. */
  accountTaxId: string;
  kind: DocumentKind;
  status: DocumentStatus;
  client: ClientData;
  document: DocumentData;
  sendTo?: string;
  /** Sequence within its series, reserved when the document closes (numbers follow closing order). */
  sequence?: number;
  number?: string;
  atCode?: string;
  createdAt: number;
  updatedAt: number;
  closedAt?: number;
  /** When Get Document first handed out the number and download link. */
  finalizedAt?: number;
  canceledAt?: number;
  payments: StoredPayment[];
  /** Tax id of the partner-invoicing account whose partner token created it, if any. */
  createdByPartnerOf?: string;
}

export type PartnershipStatus = 'requested' | 'granted';

export interface Partnership {
  /** The partner-invoicing account that asked. */
  ownerTaxId: string;
  /** The company it invoices for. */
  partnerTaxId: string;
  status: PartnershipStatus;
  allowedTypes: DocumentTypeLetter[];
  requestedAt: number;
  grantedAt?: number;
}

export interface OutboxEmail {
  id: number;
  kind: 'document' | 'partner-access-request' | 'partner-registered';
  to: string;
  subject: string;
  body: string;
  at: number;
  documentId?: number;
  attachment?: string;
}

export interface SeriesState {
  lastSequence: number;
  /** Date of the latest closed document of the series (yyyy-mm-dd). */
  lastClosedDate: string;
}

export interface SandboxState {
  version: 1;
  nextDocumentId: number;
  nextEmailId: number;
  /** Signs download links; persisted so links survive a restart. */
  linkSecret: string;
  accounts: SandboxAccount[];
  documents: StoredDocument[];
  series: Record<string, SeriesState>;
  partnerships: Partnership[];
  outbox: OutboxEmail[];
}

// The state file is a boundary: check its shape on load (a hand-edited or older file must fail loudly).
const Text = z.string();
const LineFile = z.looseObject({
  Code: Text,
  Description: Text,
  UnitPrice: Text,
  Quantity: Text,
  Unit: Text,
  Type: z.enum(['S', 'P']),
  TaxValue: Text,
  ProductDiscount: Text,
});
const DocumentFile = z.looseObject({
  Type: z.enum(['T', 'I', 'S', 'C', 'D', 'W', 'Y']),
  Date: Text,
  Lines: z.array(LineFile),
});
const StateFileSchema = z.object({
  version: z.literal(1),
  nextDocumentId: z.number().int().positive(),
  nextEmailId: z.number().int().positive(),
  linkSecret: Text,
  accounts: z.array(
    z.looseObject({ email: Text, token: Text, taxId: Text, companyName: Text, atCommunication: z.boolean() }),
  ),
  documents: z.array(
    z.looseObject({
      id: z.number().int(),
      accountTaxId: Text,
      kind: z.enum(['document', 'waybill']),
      status: z.enum(['draft', 'closed', 'canceled']),
      client: z.looseObject({ Name: Text, NIF: Text, CountryCode: Text }),
      document: DocumentFile,
      createdAt: z.number(),
      updatedAt: z.number(),
      payments: z.array(z.object({ amount: Text, at: z.number() })),
    }),
  ),
  series: z.record(z.string(), z.object({ lastSequence: z.number().int(), lastClosedDate: Text })),
  partnerships: z.array(
    z.looseObject({
      ownerTaxId: Text,
      partnerTaxId: Text,
      status: z.enum(['requested', 'granted']),
      allowedTypes: z.array(z.enum(['T', 'I', 'S', 'C', 'D', 'W', 'Y'])),
      requestedAt: z.number(),
    }),
  ),
  outbox: z.array(z.looseObject({ id: z.number().int(), kind: Text, to: Text, subject: Text, body: Text, at: z.number() })),
});

export function emptyState(accounts: SandboxAccount[], linkSecret: string): SandboxState {
  return {
    version: 1,
    nextDocumentId: 1,
    nextEmailId: 1,
    linkSecret,
    accounts: accounts.map((a) => ({ ...a })),
    documents: [],
    series: {},
    partnerships: [],
    outbox: [],
  };
}

export function loadStateFile(path: string): SandboxState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = StateFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`Sandbox state file ${path} is not valid: ${parsed.error.message}`);
  // The schema checked the parts the sandbox relies on; the loose rest is the sandbox's own output.
  return parsed.data as unknown as SandboxState;
}

/** Writes atomically (temp file + rename) so a crash mid-write never leaves half a state file. */
export function saveStateFile(path: string, state: SandboxState): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(state));
  renameSync(temp, path);
}
